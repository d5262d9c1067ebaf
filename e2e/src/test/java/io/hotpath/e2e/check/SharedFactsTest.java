package io.hotpath.e2e.check;

import static org.assertj.core.api.Assertions.assertThat;

import io.hotpath.e2e.spec.ChildJvms;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Facts that live in more than one file because each reader is a different program (Maven, the shipped launcher,
 * the JVMs): the JDK 17 flags the RocketMQ JVMs need, and the smoke's client modules. The copies must stay equal.
 */
class SharedFactsTest {

    private static final Pattern FLAG = Pattern.compile("(--add-(?:opens|exports))[ =](\\S+?)(?=[\\s)\"<]|$)");

    private static final Path ROOT = Path.of(System.getProperty("hotpath.root", "..")).toAbsolutePath().normalize();

    @Test
    void theJdk17FlagsAreTheSameInEveryCopy() throws IOException {
        List<String> pom = flags(between(read("pom.xml"), "<rocketmq.jdk17.flags>", "</rocketmq.jdk17.flags>"));
        assertThat(pom).as("the root pom's rocketmq.jdk17.flags").isNotEmpty();
        assertThat(flags(between(read("broker-dist/src/main/dist/launcher.sh"), "jvm=(", ")")))
            .as("the shipped launcher.sh").isEqualTo(pom);
        assertThat(pairs(ChildJvms.JDK17_FLAGS)).as("ChildJvms.JDK17_FLAGS (the controller and client JVMs)").isEqualTo(pom);
    }

    @Test
    void aCopyWithOneFlagMoreOrLessIsTold() {
        // the control: the comparison above sees a dropped or an added flag
        List<String> pom = flags("--add-opens java.base/java.nio=ALL-UNNAMED --add-exports java.base/jdk.internal.ref=ALL-UNNAMED");
        assertThat(flags("jvm=(--add-opens java.base/java.nio=ALL-UNNAMED)")).isNotEqualTo(pom);
        assertThat(flags("--add-opens java.base/java.nio=ALL-UNNAMED --add-exports java.base/jdk.internal.ref=ALL-UNNAMED"
            + " --add-opens java.base/java.lang=ALL-UNNAMED")).isNotEqualTo(pom);
        assertThat(pom).containsExactly("--add-opens java.base/java.nio=ALL-UNNAMED",
            "--add-exports java.base/jdk.internal.ref=ALL-UNNAMED");
    }

    @Test
    void theLauncherStartsTheClientModulesTheChecksNameAndThePomBuilds() throws IOException {
        List<String> modules = NewerClientCheck.CLIENTS.stream().map(NewerClientCheck.Client::module).toList();
        assertThat(ChildJvms.CLIENT_MODULES).as("ChildJvms.CLIENT_MODULES").isEqualTo(modules);
        String pom = read("pom.xml");
        for (String module : modules) {
            assertThat(pom).as("the root pom builds " + module).contains("<module>" + module + "</module>");
        }
        // bin/hotpath builds them with the command line, which starts them (nothing depends on them)
        Matcher built = Pattern.compile("^MODULES=\\(([^)]*)\\)$", Pattern.MULTILINE).matcher(read("bin/hotpath"));
        assertThat(built.find()).as("bin/hotpath has MODULES=(...)").isTrue();
        assertThat(List.of(built.group(1).trim().split("\\s+"))).as("bin/hotpath MODULES").containsAll(modules);
    }

    private static String read(String path) throws IOException {
        return Files.readString(ROOT.resolve(path), StandardCharsets.UTF_8);
    }

    private static String between(String text, String start, String end) {
        int from = text.indexOf(start);
        assertThat(from).as("'" + start + "' in the file").isNotNegative();
        int to = text.indexOf(end, from + start.length());
        return text.substring(from + start.length(), to);
    }

    /** Each "--add-x module/package=target" as one string, in order. */
    static List<String> flags(String text) {
        List<String> found = new ArrayList<>();
        Matcher m = FLAG.matcher(text);
        while (m.find()) {
            found.add(m.group(1) + " " + m.group(2));
        }
        return found;
    }

    private static List<String> pairs(List<String> tokens) {
        return flags(String.join(" ", tokens));
    }
}
