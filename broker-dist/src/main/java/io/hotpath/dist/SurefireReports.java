package io.hotpath.dist;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import javax.xml.parsers.DocumentBuilderFactory;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * Reads what surefire wrote for one module ({@code <module>/target/surefire-reports/TEST-*.xml}):
 * the outcome of every test case, keyed {@code Class#method}.
 */
public final class SurefireReports {

    /** FLAKY: failed, then passed when surefire ran it again ({@code rerunFailingTestsCount}). */
    public enum Outcome { PASSED, FLAKY, FAILED, SKIPPED }

    private SurefireReports() {
    }

    /** The outcomes of {@code testClass}'s tests ({@code Class#method} keys of {@link #read}), in report order. */
    public static List<Outcome> ofClass(Map<String, Outcome> outcomes, String testClass) {
        return outcomes.entrySet().stream().filter(e -> e.getKey().startsWith(testClass + "#")).map(Map.Entry::getValue).toList();
    }

    /** Test id -> outcome; empty when the module wrote no report (it has no tests, or they did not run). */
    public static Map<String, Outcome> read(Path moduleDir) {
        Map<String, Outcome> outcomes = new LinkedHashMap<>();
        for (Path file : reportFiles(moduleDir)) {
            readSuite(file, outcomes);
        }
        return outcomes;
    }

    /** The module's {@code TEST-*.xml} files in name order; none when it wrote no report. */
    private static List<Path> reportFiles(Path moduleDir) {
        Path reports = moduleDir.resolve("target/surefire-reports");
        if (!Files.isDirectory(reports)) {
            return List.of();
        }
        try (Stream<Path> files = Files.list(reports)) {
            return files.filter(f -> f.getFileName().toString().matches("TEST-.*\\.xml")).sorted().toList();
        } catch (IOException e) {
            throw new DistBuildException("cannot read " + reports + ": " + e.getMessage());
        }
    }

    /**
     * Test id -> why it failed ({@code <type>: <message>}, first line, at most 300 characters), for every test whose
     * last run failed or errored: what a CI log must show, since the reports stay on the machine that ran them.
     */
    public static Map<String, String> failureMessages(Path moduleDir) {
        Map<String, String> messages = new LinkedHashMap<>();
        for (Path file : reportFiles(moduleDir)) {
            NodeList cases = parse(file).getElementsByTagName("testcase");
            for (int i = 0; i < cases.getLength(); i++) {
                Element testCase = (Element) cases.item(i);
                String message = firstProblem(testCase);
                if (message != null) {
                    messages.putIfAbsent(testCase.getAttribute("classname") + "#" + testCase.getAttribute("name"), message);
                }
            }
        }
        return messages;
    }

    private static String firstProblem(Element testCase) {
        for (String tag : new String[] {"failure", "error"}) {
            NodeList found = testCase.getElementsByTagName(tag);
            if (found.getLength() > 0) {
                Element problem = (Element) found.item(0);
                String text = problem.getAttribute("message");
                if (text.isBlank()) {
                    text = problem.getTextContent();
                }
                String firstLine = text.strip().lines().findFirst().orElse("");
                String type = problem.getAttribute("type");
                String line = (type.isBlank() ? "" : type + ": ") + firstLine;
                return line.length() > 300 ? line.substring(0, 300) + "..." : line;
            }
        }
        return null;
    }

    private static org.w3c.dom.Document parse(Path file) {
        try {
            DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
            factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            return factory.newDocumentBuilder().parse(file.toFile());
        } catch (Exception e) {
            throw new DistBuildException("cannot parse surefire report " + file + ": " + e.getMessage());
        }
    }

    private static void readSuite(Path file, Map<String, Outcome> outcomes) {
        NodeList cases = parse(file).getElementsByTagName("testcase");
        for (int i = 0; i < cases.getLength(); i++) {
            Element testCase = (Element) cases.item(i);
            String id = testCase.getAttribute("classname") + "#" + testCase.getAttribute("name");
            outcomes.merge(id, outcome(testCase), SurefireReports::worse);
        }
    }

    private static Outcome outcome(Element testCase) {
        if (has(testCase, "failure") || has(testCase, "error")) {
            return Outcome.FAILED;
        }
        if (has(testCase, "skipped")) {
            return Outcome.SKIPPED;
        }
        return has(testCase, "flakyFailure") || has(testCase, "flakyError") ? Outcome.FLAKY : Outcome.PASSED;
    }

    private static boolean has(Element element, String child) {
        return element.getElementsByTagName(child).getLength() > 0;
    }

    /** A parameterised case that shares an id with another keeps the worse outcome. */
    private static Outcome worse(Outcome a, Outcome b) {
        for (Outcome o : new Outcome[] {Outcome.FAILED, Outcome.SKIPPED, Outcome.FLAKY}) {
            if (a == o || b == o) {
                return o;
            }
        }
        return Outcome.PASSED;
    }
}
