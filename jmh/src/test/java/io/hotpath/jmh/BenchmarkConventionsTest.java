package io.hotpath.jmh;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.SortedSet;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.runner.BenchmarkList;
import org.openjdk.jmh.runner.BenchmarkListEntry;
import org.openjdk.jmh.runner.format.OutputFormatFactory;
import org.openjdk.jmh.runner.options.VerboseMode;
import org.junit.jupiter.api.Test;

/**
 * Every benchmark in the module follows the house rules the runner and the summary rely on, so a
 * new benchmark class fails here (in the root build) rather than quietly running with other
 * settings: settings only from {@link AbstractBenchmark}, {@code <Operation>Benchmark} names,
 * results returned.
 */
class BenchmarkConventionsTest {

    private static final List<Class<? extends Annotation>> SHARED_SETTINGS =
        List.of(Fork.class, Warmup.class, Measurement.class, BenchmarkMode.class, OutputTimeUnit.class);

    @Test
    void everyBenchmarkTakesItsSettingsFromAbstractBenchmarkAndReturnsItsResult() throws Exception {
        SortedSet<BenchmarkListEntry> entries = BenchmarkList.defaultList().find(
            OutputFormatFactory.createFormatInstance(System.out, VerboseMode.SILENT), List.of(".*"), List.of());
        assertThat(entries).as("benchmarks generated into META-INF/BenchmarkList").isNotEmpty();
        Set<String> problems = new LinkedHashSet<>();
        for (BenchmarkListEntry e : entries) {
            Class<?> c = Class.forName(e.getUserClassQName());
            String method = e.getUsername().substring(e.getUsername().lastIndexOf('.') + 1);
            if (!c.getSimpleName().endsWith("Benchmark")) {
                problems.add(c.getName() + ": name it <Operation>Benchmark");
            }
            if (!AbstractBenchmark.class.isAssignableFrom(c)) {
                problems.add(c.getName() + ": extend AbstractBenchmark");
            }
            for (Class<? extends Annotation> a : SHARED_SETTINGS) {
                if (c != AbstractBenchmark.class && c.getDeclaredAnnotation(a) != null) {
                    problems.add(c.getName() + ": drop @" + a.getSimpleName() + ", settings live in AbstractBenchmark");
                }
            }
            for (Method m : c.getMethods()) {
                if (m.getName().equals(method) && m.isAnnotationPresent(Benchmark.class)) {
                    for (Class<? extends Annotation> a : SHARED_SETTINGS) {
                        if (m.getDeclaredAnnotation(a) != null) {
                            problems.add(e.getUsername() + ": drop @" + a.getSimpleName() + " on the method");
                        }
                    }
                    if (m.getReturnType() == void.class && !Modifier.isStatic(m.getModifiers())
                            && m.getParameterCount() == 0) {
                        problems.add(e.getUsername() + ": return the result (Blackhole only for several results)");
                    }
                }
            }
        }
        assertThat(problems).isEmpty();
    }

    @Test
    void everyBenchmarkLivesInItsAreasPackageAndSaysInItsJavadocHowToRunIt() throws Exception {
        Set<String> problems = new LinkedHashSet<>();
        for (BenchmarkListEntry e : BenchmarkList.defaultList().find(
                OutputFormatFactory.createFormatInstance(System.out, VerboseMode.SILENT), List.of(".*"), List.of())) {
            Class<?> c = Class.forName(e.getUserClassQName());
            if (c.getPackageName().equals(AbstractBenchmark.class.getPackageName())) {
                problems.add(c.getName() + ": put it in its area's package (codec, header, store, ...)");
            }
            // surefire runs in the module's directory
            Path source = Path.of("src/main/java", c.getName().replace('.', '/') + ".java");
            String javadoc = Files.readString(source);
            javadoc = javadoc.substring(0, javadoc.indexOf("class " + c.getSimpleName()));
            if (!javadoc.contains(" * <p>Run: {@code ") || !javadoc.contains(c.getSimpleName() + "}")) {
                problems.add(source + ": give the class Javadoc a line '<p>Run: {@code ... " + c.getSimpleName() + "}'");
            }
        }
        assertThat(problems).isEmpty();
    }
}
