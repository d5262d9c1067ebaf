package io.hotpath.dist;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The command-line tail every patch generator shares: (re)write a patch file keeping the
 * message of the existing one, say whether it changed, and turn failures into one
 * {@code hotpath: error:} line with exit code 2.
 */
final class PatchCommand {

    /** Produces the patch text from the existing patch (null if there is none). */
    interface PatchText {
        String generate(String existing) throws IOException;
    }

    /** A generator's main body; may throw the build's own exception or an I/O failure. */
    interface Body {
        void run() throws IOException;
    }

    private PatchCommand() {
    }

    /** Runs {@code body}; on failure prints one error line and exits 2 (never a bare stack trace). */
    static void run(Body body) {
        try {
            body.run();
        } catch (DistBuildException e) {
            System.err.println("hotpath: error: " + e.getMessage());
            System.exit(2);
        } catch (IOException | UncheckedIOException e) {
            System.err.println("hotpath: error: " + e);
            System.exit(2);
        }
    }

    /** Writes the generated text to {@code patch}, keeping the existing patch's message. */
    static void regenerate(Path patch, PatchText generator) throws IOException {
        String existing = Files.exists(patch) ? Files.readString(patch, StandardCharsets.UTF_8) : null;
        String text = generator.generate(existing);
        Files.createDirectories(patch.toAbsolutePath().getParent());
        Files.writeString(patch, text, StandardCharsets.UTF_8);
        System.out.println("hotpath: " + (text.equals(existing) ? "unchanged " : "wrote ") + patch);
    }
}
