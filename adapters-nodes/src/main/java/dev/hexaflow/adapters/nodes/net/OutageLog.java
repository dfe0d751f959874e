package dev.hexaflow.adapters.nodes.net;

import java.net.URI;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Tells the log when a remote service starts failing and when it answers again, once each, however many calls
 * fail in between: an endpoint down for an hour under load is two lines, not thousands. Each target (an endpoint,
 * a server, a receiver) has its own state; a call that fails says {@link #failed}, one that got an answer says
 * {@link #answered}. Through the SLF4J API only, so an embedder's own backend writes the lines.
 */
public final class OutageLog {

    private static final Logger LOG = LoggerFactory.getLogger(OutageLog.class);
    /** Targets remembered while failing; past this many, new ones are not logged (a run of bad webhook URLs). */
    static final int MOST_TARGETS = 1_000;
    private static final int LONGEST_REASON = 300;

    /** A target failing since {@code since} (milliseconds), with how many calls failed. */
    private record Failing(long since, int calls) {
    }

    private final String service;
    private final Map<String, Failing> failing = new ConcurrentHashMap<>();

    /** @param service what the targets are, as a line names them: "model endpoint", "MCP server", ... */
    public OutageLog(String service) {
        this.service = service;
    }

    /** A call to {@code target} failed for {@code reason}: the first of a run of failures is logged. */
    public void failed(String target, String reason) {
        if (failing.size() >= MOST_TARGETS && !failing.containsKey(target)) {
            return;
        }
        Failing[] before = new Failing[1];
        failing.compute(target, (key, now) -> {
            before[0] = now;
            return now == null ? new Failing(System.currentTimeMillis(), 1) : new Failing(now.since(), now.calls() + 1);
        });
        if (before[0] == null) {
            LOG.atWarn().addKeyValue("service", key()).addKeyValue("target", target)
                    .log("The {} {} is failing: {} (one line when it answers again)", service, target,
                            oneLine(reason));
        }
    }

    /** A call to {@code target} got its answer: if it was failing, that it recovered is logged. */
    public void answered(String target) {
        if (failing.isEmpty()) {
            return;
        }
        Failing ended = failing.remove(target);
        if (ended != null) {
            long seconds = Math.max(0, System.currentTimeMillis() - ended.since()) / 1000;
            LOG.atInfo().addKeyValue("service", key()).addKeyValue("target", target)
                    .addKeyValue("failed_calls", ended.calls()).addKeyValue("down_seconds", seconds)
                    .log("The {} {} answers again, after {} failed calls in {} s", service, target, ended.calls(),
                            seconds);
        }
    }

    /** An address fit for a log line: no user and password, no query (either may hold a key). */
    public static String shown(URI uri) {
        if (uri == null) {
            return "(none)";
        }
        String host = uri.getHost() == null ? "" : uri.getHost();
        return uri.getScheme() + "://" + host + (uri.getPort() < 0 ? "" : ":" + uri.getPort())
                + (uri.getRawPath() == null ? "" : uri.getRawPath());
    }

    private String key() {
        return service.toLowerCase(java.util.Locale.ROOT).replace(' ', '_');
    }

    private static String oneLine(String reason) {
        String clean = reason == null ? "no reason was given" : reason.replaceAll("\\s+", " ").strip();
        return clean.length() <= LONGEST_REASON ? clean : clean.substring(0, LONGEST_REASON) + "...";
    }
}
