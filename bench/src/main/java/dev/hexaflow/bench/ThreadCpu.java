package dev.hexaflow.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * A process's CPU time by thread, from Linux's {@code /proc/PID/task/TID/stat}, threads of one kind summed under
 * their name with its numbers made {@code N} ({@code ForkJoinPool-N-worker-N}, {@code hexaflow-http-N}). A thread
 * that ended between two readings is missing from the second: its time shows only in the process's total.
 */
final class ThreadCpu {

    /** Linux's clock ticks a second, in which /proc counts CPU time: 100 on every common kernel. */
    private static final long TICKS_PER_SECOND = 100;

    private ThreadCpu() {
    }

    /** Each kind of thread's CPU time so far, in nanoseconds; empty where /proc is not there. */
    static Map<String, Long> of(long pid) {
        Map<String, Long> byKind = new HashMap<>();
        try (Stream<Path> tasks = Files.list(Path.of("/proc", String.valueOf(pid), "task"))) {
            tasks.forEach(task -> {
                try {
                    String stat = Files.readString(task.resolve("stat"));
                    String name = stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
                    String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                    long ticks = Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
                    byKind.merge(name.replaceAll("\\d+", "N"), ticks * 1_000_000_000L / TICKS_PER_SECOND, Long::sum);
                } catch (IOException | RuntimeException ended) {
                    // The thread ended while it was read.
                }
            });
        } catch (IOException notLinux) {
            return Map.of();
        }
        return byKind;
    }

    /**
     * What each kind of thread spent between two readings, per unit of work, in microseconds, the largest first
     * (at most {@code most}), and what threads that ended meanwhile spent ({@code total} less the kinds read).
     */
    static Map<String, Double> perUnit(Map<String, Long> before, Map<String, Long> after, long total, int units,
            int most) {
        Map<String, Double> shares = new LinkedHashMap<>();
        long listed = 0;
        List<Map.Entry<String, Long>> spent = after.entrySet().stream()
                .map(kind -> Map.entry(kind.getKey(), kind.getValue() - before.getOrDefault(kind.getKey(), 0L)))
                .sorted(Map.Entry.<String, Long>comparingByValue().reversed()).toList();
        for (Map.Entry<String, Long> kind : spent) {
            listed += kind.getValue();
            if (shares.size() < most && kind.getValue() > 0) {
                shares.put(kind.getKey(), Math.round(kind.getValue() / 1e3 / units * 10) / 10.0);
            }
        }
        shares.put("(threads that ended)", Math.round(Math.max(0, total - listed) / 1e3 / units * 10) / 10.0);
        return shares;
    }
}
