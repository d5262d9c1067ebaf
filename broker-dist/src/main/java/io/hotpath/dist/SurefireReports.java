package io.hotpath.dist;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
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

    /** Test id -> outcome; empty when the module wrote no report (it has no tests, or they did not run). */
    public static Map<String, Outcome> read(Path moduleDir) {
        Path reports = moduleDir.resolve("target/surefire-reports");
        Map<String, Outcome> outcomes = new LinkedHashMap<>();
        if (!Files.isDirectory(reports)) {
            return outcomes;
        }
        try (Stream<Path> files = Files.list(reports)) {
            for (Path file : files.filter(f -> f.getFileName().toString().matches("TEST-.*\\.xml")).sorted().toList()) {
                readSuite(file, outcomes);
            }
        } catch (IOException e) {
            throw new DistBuildException("cannot read " + reports + ": " + e.getMessage());
        }
        return outcomes;
    }

    private static void readSuite(Path file, Map<String, Outcome> outcomes) {
        try {
            DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
            factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            NodeList cases = factory.newDocumentBuilder().parse(file.toFile()).getElementsByTagName("testcase");
            for (int i = 0; i < cases.getLength(); i++) {
                Element testCase = (Element) cases.item(i);
                String id = testCase.getAttribute("classname") + "#" + testCase.getAttribute("name");
                outcomes.merge(id, outcome(testCase), SurefireReports::worse);
            }
        } catch (Exception e) {
            throw new DistBuildException("cannot parse surefire report " + file + ": " + e.getMessage());
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
