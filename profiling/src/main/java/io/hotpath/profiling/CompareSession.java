package io.hotpath.profiling;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * {@code bin/hotpath profile compare STOCK_DIR PATCHED_DIR}: the collapsed stacks of the same load
 * on both builds (every {@code <name>-<event>.collapsed} in a directory, i.e. both masters of a
 * cluster session, merged) become a Markdown table per event ({@link CompareReport}), a
 * differential flame graph per event, and the reflection check ({@link ReflectionCheck}).
 */
public final class CompareSession {

    /** What one directory holds for one event: the merged stacks and the names they came from. */
    record Side(Path dir, CollapsedStacks stacks, List<String> sources) {
    }

    private static final Pattern COLLAPSED = Pattern.compile("^(.+)-(cpu|alloc|wall)\\.collapsed$");
    /** Both sides are scaled to this total before jfrconv diffs their raw self counts. */
    private static final long DIFF_TOTAL = 1_000_000;

    private CompareSession() {
    }

    /** Writes compare.md, merged and normalized collapsed stacks and diff flame graphs into {@code out}; returns check failures. */
    public static List<String> run(Path stockDir, Path patchedDir, Path out, ReflectionCheck.Expectation stockExpectation,
            ReflectionCheck.Expectation patchedExpectation, StringBuilder report) {
        Map<ProfileEvent, Side> stock = load(stockDir);
        Map<ProfileEvent, Side> patched = load(patchedDir);
        List<ProfileEvent> events = new ArrayList<>();
        for (ProfileEvent event : ProfileEvent.values()) {
            if (stock.containsKey(event) && patched.containsKey(event)) {
                events.add(event);
            }
        }
        if (events.isEmpty()) {
            throw new UsageException("no event profiled in both " + stockDir + " (" + stock.keySet() + ") and " + patchedDir
                + " (" + patched.keySet() + ")");
        }
        LiveSession.createDirectories(out);

        report.append("# Stock vs patched: samples by send-path frame family\n\n");
        report.append("- stock: `").append(stockDir).append("`\n");
        report.append("- patched: `").append(patchedDir).append("`\n\n");
        report.append("Each share is of all samples of that build (its collapsed files merged). cpu: one sample per "
            + "interval of CPU time; alloc: one sample per ~512 KiB allocated; wall: per interval of every thread's "
            + "wall time. Difference = patched - stock, in percentage points.\n");
        for (ProfileEvent event : events) {
            Side s = stock.get(event);
            Side p = patched.get(event);
            report.append("\n## ").append(event.id()).append(" (stock: ").append(String.join(", ", s.sources()))
                .append("; patched: ").append(String.join(", ", p.sources())).append(")\n\n");
            FamilyShares stockShares = FamilyShares.of(s.stacks());
            FamilyShares patchedShares = FamilyShares.of(p.stacks());
            report.append(CompareReport.table(stockShares, patchedShares));
            report.append(CompareReport.warmupNote(stockShares, patchedShares));
            report.append("\n").append(diff(event, s, p, out)).append("\n");
        }

        List<String> failures = new ArrayList<>();
        report.append("\n## Reflection check (cpu, send path)\n\n");
        check("stock", stock.get(ProfileEvent.CPU), stockExpectation, failures, report);
        check("patched", patched.get(ProfileEvent.CPU), patchedExpectation, failures, report);
        write(out.resolve("compare.md"), report.toString());
        return failures;
    }

    private static String diff(ProfileEvent event, Side stock, Side patched, Path out) {
        Path stockFile = out.resolve("stock-" + event.id() + ".collapsed");
        Path patchedFile = out.resolve("patched-" + event.id() + ".collapsed");
        stock.stacks().write(stockFile);
        patched.stacks().write(patchedFile);
        Path stockNormalized = out.resolve("stock-" + event.id() + ".normalized.collapsed");
        Path patchedNormalized = out.resolve("patched-" + event.id() + ".normalized.collapsed");
        stock.stacks().normalizedTo(DIFF_TOTAL).write(stockNormalized);
        patched.stacks().normalizedTo(DIFF_TOTAL).write(patchedNormalized);
        Path html = out.resolve("diff-" + event.id() + ".html");
        JfrExport.diff(stockNormalized, patchedNormalized, html, "patched vs stock (" + event.id() + ")");
        return "Diff flame graph: `" + html.getFileName() + "`: the patched profile's shape; red = frame has more self "
            + "samples than on stock, blue = fewer (both scaled to " + DIFF_TOTAL + " samples); frames only stock has are not drawn.";
    }

    private static void check(String build, Side cpu, ReflectionCheck.Expectation expected, List<String> failures,
            StringBuilder report) {
        if (expected == ReflectionCheck.Expectation.IGNORE) {
            report.append("- not checked: ").append(build).append(": ")
                .append(cpu == null ? "no cpu profile" : ReflectionCheck.describe(FamilyShares.of(cpu.stacks()), expected))
                .append("\n");
            return;
        }
        if (cpu == null) {
            failures.add(build + ": no cpu profile to check");
            report.append("- ").append(build).append(": FAILED, no cpu profile\n");
            return;
        }
        FamilyShares shares = FamilyShares.of(cpu.stacks());
        Optional<String> failure = ReflectionCheck.verify(build, shares, expected);
        failure.ifPresent(failures::add);
        report.append("- ").append(failure.isPresent() ? "FAILED: " : "ok: ").append(build).append(": ")
            .append(ReflectionCheck.describe(shares, expected)).append("\n");
    }

    /** Every {@code <name>-<event>.collapsed} of {@code dir}, merged per event. */
    static Map<ProfileEvent, Side> load(Path dir) {
        if (!Files.isDirectory(dir)) {
            throw new UsageException("no such directory: " + dir);
        }
        Map<ProfileEvent, CollapsedStacks> stacks = new EnumMap<>(ProfileEvent.class);
        Map<ProfileEvent, TreeSet<String>> sources = new EnumMap<>(ProfileEvent.class);
        try (Stream<Path> files = Files.list(dir)) {
            for (Path file : files.sorted().toList()) {
                Matcher m = COLLAPSED.matcher(file.getFileName().toString());
                if (!m.matches()) {
                    continue;
                }
                ProfileEvent event = ProfileEvent.valueOf(m.group(2).toUpperCase(Locale.ROOT));
                stacks.merge(event, CollapsedStacks.read(file), CollapsedStacks::merge);
                sources.computeIfAbsent(event, e -> new TreeSet<>()).add(m.group(1));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + dir + ": " + e.getMessage(), e);
        }
        if (stacks.isEmpty()) {
            throw new UsageException(dir + " holds no <name>-<event>.collapsed files (written by profile broker/cluster)");
        }
        Map<ProfileEvent, Side> sides = new EnumMap<>(ProfileEvent.class);
        stacks.forEach((event, merged) -> sides.put(event, new Side(dir, merged, List.copyOf(sources.get(event)))));
        return sides;
    }

    /** {@code profile check DIR}: the reflection check on one build's cpu profiles. */
    public static Optional<String> check(Path dir, String build, ReflectionCheck.Expectation expected, StringBuilder report) {
        Side cpu = load(dir).get(ProfileEvent.CPU);
        if (cpu == null) {
            throw new UsageException(dir + " holds no <name>-cpu.collapsed files");
        }
        FamilyShares shares = FamilyShares.of(cpu.stacks());
        report.append(build).append(": ").append(ReflectionCheck.describe(shares, expected)).append(" in ")
            .append(String.join(", ", cpu.sources()));
        return ReflectionCheck.verify(build, shares, expected);
    }

    private static void write(Path file, String text) {
        try {
            Files.writeString(file, text, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file + ": " + e.getMessage(), e);
        }
    }
}
