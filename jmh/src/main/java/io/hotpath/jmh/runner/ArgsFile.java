package io.hotpath.jmh.runner;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Reads the JMH arguments that {@code bin/hotpath jmh} got after {@code --} from the file named by
 * {@code -Djmh.argsFile}: each argument in UTF-8 followed by one NUL byte, as module cli's Jmh writes them (what
 * {@code printf '%s\0' "$@"} would write). NUL is the one byte no command-line argument can contain, so every argument comes back
 * exactly as typed (spaces, quotes, {@code =}, newlines, empty ones); a whitespace-split property such as
 * {@code -Djmh.args} cannot carry {@code -jvmArgsAppend "-XX:+A -XX:+B"}.
 */
final class ArgsFile {

    private ArgsFile() {
    }

    /** The arguments in order; an empty file holds none ({@code bin/hotpath jmh --}). */
    static List<String> read(Path file) {
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(file);
        } catch (NoSuchFileException e) {
            throw new IllegalArgumentException("no JMH arguments file " + file + " (-Djmh.argsFile)");
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read the JMH arguments file " + file + " (-Djmh.argsFile): " + e);
        }
        if (bytes.length == 0) {
            return Collections.emptyList();
        }
        if (bytes[bytes.length - 1] != 0) {
            // a cut-off file would otherwise pass a truncated last argument to JMH
            throw new IllegalArgumentException("the JMH arguments file " + file + " (-Djmh.argsFile) does not end with"
                + " a NUL byte: it must hold each argument followed by NUL (printf '%s\\0' ARG...)");
        }
        String text;
        try {
            text = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes)).toString();
        } catch (CharacterCodingException e) {
            throw new IllegalArgumentException("the JMH arguments file " + file + " (-Djmh.argsFile) is not UTF-8");
        }
        List<String> args = new ArrayList<>();
        int from = 0;
        for (int nul = text.indexOf('\0'); nul >= 0; nul = text.indexOf('\0', from)) {
            args.add(text.substring(from, nul));
            from = nul + 1;
        }
        return args;
    }
}
