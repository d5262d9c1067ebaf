package io.hotpath.jmh.runner;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.results.BenchmarkResult;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.WorkloadParams;
import org.openjdk.jmh.runner.options.CommandLineOptionException;
import org.openjdk.jmh.runner.options.CommandLineOptions;

/**
 * The default run as several JMH invocations ({@link Headline#parts()}), so that the control rows get one fork
 * between the lines instead of all of them at the end; the results come back as one run: the forks of a benchmark
 * measured in several parts become one result, so JMH's own statistics give its score and error over all of them.
 */
final class PartedRun {

    private PartedRun() {
    }

    /** Runs every part in order, with {@code args}' options, and merges the results ({@link #merge}). */
    static List<RunResult> run(List<Headline.Part> parts, JmhArguments args, int forks, PrintStream log)
            throws RunnerException, CommandLineOptionException {
        List<RunResult> all = new ArrayList<>();
        for (int i = 0; i < parts.size(); i++) {
            Headline.Part part = parts.get(i);
            log.println("hotpath-jmh: part " + (i + 1) + " of " + parts.size() + ": " + part.label());
            List<String> argv = args.part(part.include(), part.control() ? Headline.CONTROL_FORKS_PER_PART : forks);
            all.addAll(new Runner(new CommandLineOptions(argv.toArray(new String[0]))).run());
        }
        return merge(all);
    }

    /**
     * One result per benchmark and parameters, in the order of their first part: where several parts measured the
     * same one, its forks together under that part's settings with the fork count they add up to.
     */
    static List<RunResult> merge(Collection<RunResult> results) {
        Map<String, List<RunResult>> byId = new LinkedHashMap<>();
        for (RunResult r : results) {
            byId.computeIfAbsent(r.getParams().id(), k -> new ArrayList<>()).add(r);
        }
        List<RunResult> merged = new ArrayList<>();
        for (List<RunResult> same : byId.values()) {
            if (same.size() == 1) {
                merged.add(same.get(0));
                continue;
            }
            List<BenchmarkResult> forks = new ArrayList<>();
            for (RunResult r : same) {
                forks.addAll(r.getBenchmarkResults());
            }
            merged.add(new RunResult(withForks(same.get(0).getParams(), forks.size()), forks));
        }
        return merged;
    }

    /** {@code p} with another fork count: what the JSON's "forks" says must match the forks its raw data holds. */
    private static BenchmarkParams withForks(BenchmarkParams p, int forks) {
        WorkloadParams workload = new WorkloadParams();
        int order = 0;
        for (Object key : p.getParamsKeys()) {
            String name = (String) key;
            workload.put(name, p.getParam(name), order++);
        }
        @SuppressWarnings("unchecked")
        Collection<String> labels = p.getThreadGroupLabels();
        @SuppressWarnings("unchecked")
        Collection<String> jvmArgs = p.getJvmArgs();
        return new BenchmarkParams(p.getBenchmark(), p.generatedBenchmark(), p.shouldSynchIterations(), p.getThreads(),
            p.getThreadGroups(), labels, forks, p.getWarmupForks(), p.getWarmup(), p.getMeasurement(), p.getMode(),
            workload, p.getTimeUnit(), p.getOpsPerInvocation(), p.getJvm(), jvmArgs, p.getJdkVersion(), p.getVmName(),
            p.getVmVersion(), p.getJmhVersion(), p.getTimeout());
    }
}
