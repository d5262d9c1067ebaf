package io.hotpath.dist;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

/**
 * Generates {@code patches/4.9.0/0001-common-message-properties-codec.patch} from hotpath-codec's
 * sources and the rocketmq-common 4.9.0 {@code -sources} jar, so that the patch and the module can
 * never drift: broker-dist's {@code CodecPatchFreshnessTest} regenerates it and compares.
 *
 * <p>The patch (git format-patch, against the rocketmq-all-4.9.0 tree):
 * <ul>
 *   <li>adds the 4.9.0 codec to the common module as {@code common/src/main/java/io/hotpath/codec/*.java},
 *       byte-identical to hotpath-codec's files ({@link #CODEC_FILES});</li>
 *   <li>swaps the bodies of {@code MessageDecoder.messageProperties2String} and
 *       {@code string2messageProperties} for a call to {@code PropertiesCodec490}, keeping the
 *       signatures, so every upstream caller gets it unchanged.</li>
 * </ul>
 * The commit message (From, Date, Subject, Motivation / Modification / Result) is kept from the
 * existing patch file, so the lead's edits to it survive a regeneration; only the diff is rebuilt.
 *
 * <p>Run: {@code patches/regenerate.sh}.
 */
public final class CodecPatchGenerator {

    public static final String PATCH_NAME = "0001-common-message-properties-codec.patch";
    public static final String DECODER_PATH = "common/src/main/java/org/apache/rocketmq/common/message/MessageDecoder.java";
    public static final String CODEC_DIR = "common/src/main/java/io/hotpath/codec/";
    /** What the 4.9.0 codec needs, nothing else (PropertiesCodec491 stays out of the 4.9.0 broker). */
    public static final List<String> CODEC_FILES = List.of(
        "PropertiesCodec490.java", "PropertiesEncoder.java", "EncodeBuffer.java", "PropertyNames.java");

    private static final String SERIALIZE_SIGNATURE =
        "public static String messageProperties2String(Map<String, String> properties) {";
    private static final String SERIALIZE_BODY = "\n"
        + "        // rocketmq-hotpath: the same String as the StringBuilder loop for every map (trailing\n"
        + "        // separator, null key as \"null\", null values skipped), written once into a reused buffer\n"
        + "        return PropertiesCodec490.messageProperties2String(properties);\n"
        + "    ";
    private static final String PARSE_SIGNATURE =
        "public static Map<String, String> string2messageProperties(final String properties) {";
    private static final String PARSE_BODY = "\n"
        + "        // rocketmq-hotpath: the same fresh HashMap as the two split() loops for every string (empty\n"
        + "        // key kept, value with an inner \\1 dropped, last duplicate wins), in one indexOf scan\n"
        + "        return PropertiesCodec490.string2messageProperties(properties);\n"
        + "    ";
    private static final String IMPORT = "import io.hotpath.codec.PropertiesCodec490;\n";

    private static final String DEFAULT_MESSAGE = """
        Faster MessageDecoder properties codec, identical to 4.9.0

        Motivation:

        Every message a 4.9.0 broker stores passes MessageDecoder's properties
        codec several times: SendMessageProcessor parses the request's properties
        twice and serializes the map once more after adding CLUSTER, and the reput
        service parses the stored properties again to build the consume queue
        (CommitLog.checkMessageAndReturnSize). 4.9.0 serializes into a
        StringBuilder grown from 16 chars and parses with two split() passes that
        allocate a String[] per property. Later releases changed the format (no
        trailing separator in 4.9.1 - 5.1.4, other parse rules), so their code is
        no drop-in for a 4.9.0 cluster.

        Modification:

        - Add io.hotpath.codec.PropertiesCodec490 (with PropertiesEncoder,
          EncodeBuffer, PropertyNames) to the common module: byte-identical to
          the rocketmq-hotpath hotpath-codec module, from which this patch is
          generated.
        - MessageDecoder.messageProperties2String and string2messageProperties
          keep their signatures and delegate to it. Output is identical to 4.9.0
          for every input: the trailing separator, "null" keys, skipped null
          values, map iteration order, and on parse the fresh mutable HashMap of
          the same capacity, empty keys kept, values containing \\1 dropped, junk
          segments skipped, last duplicate wins.
        - Proven against the stock 4.9.0 jar as oracle: a contract suite and
          jqwik differential properties (>= 100,000 cases each) run against the
          patched MessageDecoder of the built broker.

        Result: see jmh summary (filled in by the lead)
        """;

    private CodecPatchGenerator() {
    }

    /**
     * The patch text. {@code existingPatch}, if not null, provides the message part (everything
     * before the first {@code ---} line); {@code workDir} is emptied and used as a scratch repository.
     */
    public static String generate(Path commonSourcesJar, Path codecSources, String existingPatch, Path workDir) {
        String stockDecoder = readEntry(commonSourcesJar, "org/apache/rocketmq/common/message/MessageDecoder.java");
        String patchedDecoder = patchDecoder(stockDecoder);

        Map<String, String> stock = Map.of(DECODER_PATH, stockDecoder);
        Map<String, String> patched = new java.util.LinkedHashMap<>();
        patched.put(DECODER_PATH, patchedDecoder);
        for (String file : CODEC_FILES) {
            patched.put(CODEC_DIR + file, readSource(codecSources.resolve("io/hotpath/codec").resolve(file)));
        }
        return formatPatch(stock, patched, DEFAULT_MESSAGE, existingPatch, workDir);
    }

    /**
     * A git format-patch of the change from {@code stock} (repository path -> upstream text) to
     * {@code patched} (changed and added files), by a fixed identity. {@code existingPatch}, if not
     * null, provides the message part; {@code workDir} is emptied and used as a scratch repository.
     */
    static String formatPatch(Map<String, String> stock, Map<String, String> patched, String defaultMessage,
                              String existingPatch, Path workDir) {
        FileTrees.deleteRecursively(workDir);
        try {
            Files.createDirectories(workDir);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        // fixed identity: nothing in the patch depends on who runs the generator
        Map<String, String> identity = Map.of(
            "GIT_AUTHOR_NAME", "rocketmq-hotpath maintainers", "GIT_AUTHOR_EMAIL", "maintainers@users.noreply.a-seed-ca7d3a66.example",
            "GIT_COMMITTER_NAME", "rocketmq-hotpath maintainers", "GIT_COMMITTER_EMAIL", "maintainers@users.noreply.a-seed-ca7d3a66.example",
            "GIT_AUTHOR_DATE", "2021-06-10T00:00:00Z", "GIT_COMMITTER_DATE", "2021-06-10T00:00:00Z");
        Git git = new Git(workDir, identity);
        git.init();
        stock.forEach((path, text) -> write(workDir.resolve(path), text));
        Git.check(git.run("add", "-A"), "git add");
        Git.check(git.run("commit", "-q", "--no-verify", "-m", "rocketmq-all-4.9.0 " + String.join(" ", new java.util.TreeSet<>(stock.keySet()))),
            "git commit");

        patched.forEach((path, text) -> write(workDir.resolve(path), text));
        Git.check(git.run("add", "-A"), "git add");
        // dated now: the date only shows in the header of a brand-new patch, an existing header is kept
        Map<String, String> now = new java.util.HashMap<>(identity);
        now.remove("GIT_AUTHOR_DATE");
        Git change = new Git(workDir, now);
        Git.check(change.run("commit", "-q", "--no-verify", "-m", defaultMessage), "git commit");
        String generated = Git.check(change.run("format-patch", "-1", "--stdout", "--zero-commit", "--no-signature",
            "--no-numbered", "--stat=80", "--abbrev=7", "HEAD"), "git format-patch").stdout();

        if (existingPatch == null) {
            return generated;
        }
        return messagePart(existingPatch) + diffPart(generated);
    }

    /** Everything up to, not including, the line "---" that ends a format-patch message. */
    static String messagePart(String patch) {
        int at = separator(patch);
        return patch.substring(0, at);
    }

    /** From the "---" line on: diffstat and diff. */
    static String diffPart(String patch) {
        return patch.substring(separator(patch));
    }

    private static int separator(String patch) {
        int at = patch.startsWith("---\n") ? 0 : patch.indexOf("\n---\n");
        if (at < 0) {
            throw new DistBuildException("not a git format-patch file: no '---' line after the message");
        }
        return at == 0 ? 0 : at + 1;
    }

    static String patchDecoder(String source) {
        String patched = replaceBody(source, SERIALIZE_SIGNATURE, SERIALIZE_BODY);
        patched = replaceBody(patched, PARSE_SIGNATURE, PARSE_BODY);
        // imports are sorted in upstream's MessageDecoder: io.* goes before the first (java.*) import
        int firstImport = patched.indexOf("\nimport ") + 1;
        if (firstImport == 0 || !patched.startsWith("import java.", firstImport)) {
            throw new DistBuildException("MessageDecoder.java: imports do not start with java.*; update CodecPatchGenerator");
        }
        patched = patched.substring(0, firstImport) + IMPORT + patched.substring(firstImport);
        // the old parse body was the only user of HashMap: upstream's checkstyle bans unused imports
        return usedOutsideImportsAndComments(patched, "HashMap") ? patched : patched.replace("import java.util.HashMap;\n", "");
    }

    static boolean usedOutsideImportsAndComments(String source, String simpleName) {
        return source.lines()
            .map(String::strip)
            .filter(line -> !line.startsWith("import ") && !line.startsWith("//") && !line.startsWith("*")
                && !line.startsWith("/*"))
            .anyMatch(line -> line.matches(".*\\b" + simpleName + "\\b.*"));
    }

    /** Replaces what is between the method's braces; the signature must occur exactly once. */
    static String replaceBody(String source, String signature, String body) {
        return replaceBody("MessageDecoder.java", source, signature, body);
    }

    static String replaceBody(String file, String source, String signature, String body) {
        int at = source.indexOf(signature);
        if (at < 0 || source.indexOf(signature, at + 1) >= 0) {
            throw new DistBuildException(file + ": expected exactly one '" + signature + "'");
        }
        int open = at + signature.length() - 1;
        int close = matchingBrace(source, open);
        return source.substring(0, open + 1) + body + source.substring(close);
    }

    /** Index of the '}' closing the '{' at {@code open}; skips string/char literals and comments. */
    static int matchingBrace(String s, int open) {
        int depth = 0;
        for (int i = open; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '"' || c == '\'') {
                for (i++; s.charAt(i) != c; i++) {
                    if (s.charAt(i) == '\\') {
                        i++;
                    }
                }
            } else if (c == '/' && s.startsWith("//", i)) {
                i = s.indexOf('\n', i);
            } else if (c == '/' && s.startsWith("/*", i)) {
                i = s.indexOf("*/", i) + 1;
            } else if (c == '{') {
                depth++;
            } else if (c == '}' && --depth == 0) {
                return i;
            }
        }
        throw new DistBuildException("MessageDecoder.java: unbalanced braces after offset " + open);
    }

    static String readSource(Path source) {
        try {
            return Files.readString(source, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new DistBuildException("cannot read module source " + source + ": " + e.getMessage());
        }
    }

    static String readEntry(Path jar, String name) {
        try (ZipFile zip = new ZipFile(jar.toFile())) {
            ZipEntry entry = zip.getEntry(name);
            if (entry == null) {
                throw new DistBuildException(jar.getFileName() + " has no " + name);
            }
            return new String(zip.getInputStream(entry).readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new DistBuildException("cannot read " + jar + ": " + e.getMessage());
        }
    }

    private static void write(Path file, String text) {
        try {
            Files.createDirectories(file.getParent());
            Files.writeString(file, text, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * {@code --sources-jar JAR --codec-sources DIR --patch FILE --work DIR}: (re)writes FILE, keeping
     * its message if it exists.
     */
    public static void main(String[] args) {
        PatchCommand.run(() -> {
            if (args.length != 8 || !args[0].equals("--sources-jar") || !args[2].equals("--codec-sources")
                || !args[4].equals("--patch") || !args[6].equals("--work")) {
                throw new DistBuildException("usage: CodecPatchGenerator --sources-jar JAR --codec-sources DIR --patch FILE --work DIR");
            }
            PatchCommand.regenerate(Path.of(args[5]),
                existing -> generate(Path.of(args[1]), Path.of(args[3]), existing, Path.of(args[7])));
        });
    }
}
