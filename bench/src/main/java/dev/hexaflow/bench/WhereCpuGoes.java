package dev.hexaflow.bench;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordingFile;

/**
 * Where a server's CPU went, from a flight recording's execution samples: each sample is put in the part of the
 * server its stack shows nearest its top (the JDK's HTTP client, Jackson, Jetty and Javalin, H2, the model
 * provider, the rest of Hexaflow), so that the JDK's own collections and locks count for whoever called them.
 * Samples are of Java threads only: GC and the JIT compiler are not in them.
 *
 * <p>Usage: {@code java -cp bench/target/benchmarks.jar dev.hexaflow.bench.WhereCpuGoes server.jfr [TOP=25]}: the
 * share of each part, then the top frames of the samples that fell in no part.
 */
public final class WhereCpuGoes {

    /** The parts in the order a frame is tried against them; a frame's class starting with a prefix is in it. */
    private static final Map<String, List<String>> PARTS = parts();

    private WhereCpuGoes() {
    }

    private static Map<String, List<String>> parts() {
        Map<String, List<String>> parts = new LinkedHashMap<>();
        parts.put("model provider (request, stream parsing)", List.of("dev.hexaflow.adapters.nodes.model."));
        parts.put("JDK HTTP client", List.of("jdk.internal.net.http.", "java.net.http."));
        parts.put("Jackson", List.of("com.fasterxml.jackson."));
        parts.put("H2 (the run writer)", List.of("org.h2."));
        parts.put("PostgreSQL driver and pool", List.of("org.postgresql.", "com.zaxxer.hikari."));
        parts.put("Jetty, Javalin", List.of("org.eclipse.jetty.", "io.javalin."));
        parts.put("logging", List.of("ch.qos.logback.", "org.slf4j."));
        parts.put("Jinjava", List.of("com.hubspot."));
        parts.put("run store and recorder", List.of("dev.hexaflow.adapters.persistence."));
        parts.put("HTTP routes and wire", List.of("dev.hexaflow.adapters.http."));
        parts.put("engine and nodes", List.of("dev.hexaflow.workflow.", "dev.hexaflow.engine."));
        parts.put("rest of Hexaflow", List.of("dev.hexaflow."));
        return parts;
    }

    public static void main(String[] args) throws Exception {
        int top = args.length > 1 ? Integer.parseInt(args[1]) : 25;
        Map<String, Integer> counts = new LinkedHashMap<>();
        PARTS.keySet().forEach(part -> counts.put(part, 0));
        Map<String, Integer> unplaced = new TreeMap<>();
        int total = 0;
        for (RecordedEvent event : RecordingFile.readAllEvents(Path.of(args[0]))) {
            if (!event.getEventType().getName().equals("jdk.ExecutionSample") || event.getStackTrace() == null) {
                continue;
            }
            total++;
            List<RecordedFrame> frames = event.getStackTrace().getFrames();
            String part = partOf(frames);
            if (part != null) {
                counts.merge(part, 1, Integer::sum);
            } else if (!frames.isEmpty()) {
                unplaced.merge(name(frames.get(0)), 1, Integer::sum);
            }
        }
        int placed = counts.values().stream().mapToInt(Integer::intValue).sum();
        System.out.printf("%d samples%n%n| part | share |%n|---|---|%n", total);
        for (Map.Entry<String, Integer> part : counts.entrySet()) {
            System.out.printf("| %s | %.1f %% |%n", part.getKey(), 100.0 * part.getValue() / total);
        }
        System.out.printf("| the JDK alone (threads, sockets, no caller above) | %.1f %% |%n%n",
                100.0 * (total - placed) / total);
        int all = total;
        unplaced.entrySet().stream().sorted((a, b) -> b.getValue() - a.getValue()).limit(top)
                .forEach(entry -> System.out.printf("%5.1f %%  %s%n", 100.0 * entry.getValue() / all,
                        entry.getKey()));
    }

    private static String partOf(List<RecordedFrame> frames) {
        for (RecordedFrame frame : frames) {
            String type = frame.getMethod().getType().getName();
            for (Map.Entry<String, List<String>> part : PARTS.entrySet()) {
                for (String prefix : part.getValue()) {
                    if (type.startsWith(prefix)) {
                        return part.getKey();
                    }
                }
            }
        }
        return null;
    }

    private static String name(RecordedFrame frame) {
        return frame.getMethod().getType().getName() + "." + frame.getMethod().getName();
    }
}
