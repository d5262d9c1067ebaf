package io.hotpath.e2e.measure;

import io.hotpath.e2e.ClusterException;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The CPU of one process and of each of its threads at one instant: {@code /proc/<pid>/stat}, then
 * {@code /proc/<pid>/task/<tid>/stat} of every thread (utime, stime and the thread's name) and its {@code status}
 * (context switches). Two snapshots around the load window give a master's CPU and context switches per thread group
 * ({@link #since}), which say where a difference in CPU per message of a few % between two arms comes from, and how
 * many wake-ups a message costs. PIDs as in {@link ProcessCpuTimes}.
 */
public record ThreadCpuTimes(ProcessCpuTimes process, Map<Long, Task> tasks) {

    /** Characters a thread name's counter is made of, stripped to get its group ("GC Thread#3" -> "GC Thread"). */
    private static final String COUNTER_CHARACTERS = "0123456789_-# ";

    /** One thread: its name as the kernel keeps it (cut to 15 bytes), the CPU it has used and how often it switched. */
    public record Task(String name, ProcessCpuTimes cpu, ContextSwitches switches) {

        /** A thread whose context switches were not read. */
        public Task(String name, ProcessCpuTimes cpu) {
            this(name, cpu, ContextSwitches.NONE);
        }
    }

    public static ThreadCpuTimes of(long pid) {
        return of(Path.of("/proc"), pid);
    }

    /** {@link #of(long)} from a /proc-like tree at {@code procRoot} (tests read fixtures written under target/). */
    public static ThreadCpuTimes of(Path procRoot, long pid) {
        Path proc = procRoot.resolve(Long.toString(pid));
        ProcessCpuTimes process = ProcessCpuTimes.read(proc.resolve("stat"));
        Map<Long, Task> tasks = new TreeMap<>();
        try (DirectoryStream<Path> threads = Files.newDirectoryStream(proc.resolve("task"))) {
            for (Path thread : threads) {
                String stat;
                String status;
                try {
                    stat = Files.readString(thread.resolve("stat"));
                    status = Files.readString(thread.resolve("status"));
                } catch (IOException e) {
                    // ended between the listing and the reads: its CPU is left to ThreadGroupCpu.exitedMicros
                    continue;
                }
                tasks.put(Long.parseLong(thread.getFileName().toString()), parse(stat, status));
            }
        } catch (IOException e) {
            throw new ClusterException("cannot list the threads of process " + pid + " (process gone?): " + e.getMessage(), e);
        }
        return new ThreadCpuTimes(process, tasks);
    }

    /** The name (field 2) lies between the first '(' and the last ')': it may contain both, and spaces. */
    static Task parse(String stat) {
        return new Task(stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')')), ProcessCpuTimes.parse(stat));
    }

    /** {@link #parse(String)} with the context switches of the thread's status file. */
    static Task parse(String stat, String status) {
        Task task = parse(stat);
        return new Task(task.name(), task.cpu(), ContextSwitches.parse(status));
    }

    /**
     * A thread's group: its name without the trailing counter and separators, so that the 16 threads of
     * one pool add up ("SendMessageThre" stays, as Linux cut "SendMessageThread_12" before its counter;
     * "G1 Conc#0" -> "G1 Conc"). A name that is all counter is its own group.
     */
    static String group(String name) {
        int end = name.length();
        while (end > 0 && COUNTER_CHARACTERS.indexOf(name.charAt(end - 1)) >= 0) {
            end--;
        }
        return end == 0 ? name : name.substring(0, end);
    }

    /**
     * What each thread group used between {@code start} and this snapshot. A thread born in the window counts
     * from 0; one that ended in it is only counted in {@link ThreadGroupCpu#exitedThreads()}: its CPU went
     * with it, and only the process figure still holds it.
     */
    public ThreadGroupCpu since(ThreadCpuTimes start) {
        Map<String, ProcessCpuTimes> cpu = new TreeMap<>();
        Map<String, ContextSwitches> switches = new TreeMap<>();
        Map<String, Integer> threads = new TreeMap<>();
        tasks.forEach((tid, task) -> {
            Task before = start.tasks.get(tid);
            // a thread's counters never go down: lower ones mean the kernel gave the TID to a new thread
            boolean sameThread = before != null && task.cpu().userMicros() >= before.cpu().userMicros()
                    && task.cpu().systemMicros() >= before.cpu().systemMicros() && task.switches().notBelow(before.switches());
            String group = group(task.name());
            cpu.merge(group, sameThread ? task.cpu().minus(before.cpu()) : task.cpu(), ProcessCpuTimes::plus);
            switches.merge(group, sameThread ? task.switches().minus(before.switches()) : task.switches(), ContextSwitches::plus);
            threads.merge(group, 1, Integer::sum);
        });
        int exited = (int) start.tasks.keySet().stream().filter(tid -> !tasks.containsKey(tid)).count();
        List<ThreadGroupCpu.Group> groups = new ArrayList<>();
        cpu.forEach((group, used) -> groups.add(new ThreadGroupCpu.Group(group, threads.get(group), used, switches.get(group))));
        groups.sort(ThreadGroupCpu.LARGEST_FIRST);
        return new ThreadGroupCpu(process.minus(start.process), List.copyOf(groups), tasks.size(), exited);
    }
}
