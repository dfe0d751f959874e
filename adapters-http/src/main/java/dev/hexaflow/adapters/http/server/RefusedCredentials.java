package dev.hexaflow.adapters.http.server;

import io.javalin.http.Context;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One warning per credential the server refuses: which API's credential, from which address, on which route, and
 * why in the server's own words, never the credential nor any part of it. A scanner that tries thousands of keys
 * must not flood the log: from one address, one line per API a minute, and the next line says how many were left
 * out.
 */
public final class RefusedCredentials {

    private static final Logger LOG = LoggerFactory.getLogger(RefusedCredentials.class);

    /** At most one line a window for one address and one API. */
    public static final Duration WINDOW = Duration.ofMinutes(1);
    /**
     * Addresses told apart; past this many within a window, the others share one line a window per API, so that a
     * scan from many addresses holds no more memory than this.
     */
    static final int MOST_ADDRESSES = 10_000;
    private static final int LONGEST_ROUTE = 200;

    /** The credential each API takes. */
    public enum Credential {
        APP_KEY("/v1 app key"), WEB_APP_TOKEN("web app token"), DATASET_KEY("/v1 dataset key"),
        ADMIN_TOKEN("/admin token"), CAMPUS_KEY("/v2 campus key");

        private final String shown;

        Credential(String shown) {
            this.shown = shown;
        }

        /** Its name in a log line. */
        public String shown() {
            return shown;
        }
    }

    /** The lines of one address and API: when the window began, and how many were left out since. */
    private record Window(long began, int leftOut) {
    }

    private final Map<String, Window> windows = new ConcurrentHashMap<>();
    private final LongSupplier nanos;
    private final long windowNanos;

    public RefusedCredentials() {
        this(System::nanoTime, WINDOW);
    }

    /** With a clock and a window of one's own, for tests of the rate. */
    RefusedCredentials(LongSupplier nanos, Duration window) {
        this.nanos = nanos;
        this.windowNanos = window.toNanos();
    }

    /** A request refused for its {@code credential}; {@code reason} is the server's own words. */
    public void refused(Context ctx, Credential credential, String reason) {
        refused(ctx.req().getRemoteAddr(), ctx.method().name(), ctx.path(), credential, reason);
    }

    /** Answers whether a line was written (false when it was left out of this window). */
    boolean refused(String address, String method, String path, Credential credential, String reason) {
        long now = nanos.getAsLong();
        String key = keyOf(address, credential, now);
        Window[] ended = new Window[1];
        Window current = windows.compute(key, (k, open) -> {
            if (open == null || now - open.began() >= windowNanos) {
                ended[0] = open;
                return new Window(now, 0);
            }
            return new Window(open.began(), open.leftOut() + 1);
        });
        if (current.leftOut() > 0) {
            return false;
        }
        int leftOut = ended[0] == null ? 0 : ended[0].leftOut();
        String route = method + " " + oneLine(path);
        LOG.atWarn().addKeyValue("credential", credential.name().toLowerCase(java.util.Locale.ROOT))
                .addKeyValue("remote_address", address).addKeyValue("route", route)
                .addKeyValue("left_out", leftOut)
                .log("Refused a {} from {} on {}: {}{}", credential.shown(), address, route, reason,
                        leftOut == 0 ? "" : " (" + leftOut + " more from this address in the minute before were "
                                + "not logged)");
        return true;
    }

    private String keyOf(String address, Credential credential, long now) {
        String key = address + " " + credential;
        if (windows.size() >= MOST_ADDRESSES && !windows.containsKey(key)) {
            windows.values().removeIf(window -> now - window.began() >= windowNanos);
            if (windows.size() >= MOST_ADDRESSES) {
                return "many addresses " + credential;
            }
        }
        return key;
    }

    /** A path as a client sent it may hold anything: no line breaks into the log, and no more than a line. */
    private static String oneLine(String path) {
        String clean = path.replaceAll("\\p{Cntrl}", "?");
        return clean.length() <= LONGEST_ROUTE ? clean : clean.substring(0, LONGEST_ROUTE) + "...";
    }
}
