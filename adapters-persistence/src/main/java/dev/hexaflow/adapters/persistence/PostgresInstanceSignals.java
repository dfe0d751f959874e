package dev.hexaflow.adapters.persistence;

import dev.hexaflow.application.common.port.out.InstanceSignals;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import org.jdbi.v3.core.Jdbi;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Signals between the instances of one PostgreSQL database through its {@code LISTEN}/{@code NOTIFY}: a message is
 * a notification on one channel, {@code <instance> <topic> <message>}, sent through the pool once what it tells of
 * is committed (or, when the pool fails, by the listening thread on its own connection as soon as it can), and heard
 * on a connection of its own that a thread waits on. PostgreSQL delivers a notification to every connection
 * listening when it commits; one told while this instance's connection was lost is not delivered, so on a new
 * connection every {@link #onMissed} action runs, and until then this instance is not {@link #hearing()}. The
 * listening connection is asked a query every few seconds, with a socket time-out, so that one dropped without a
 * word (a failover, a firewall) is found lost. {@code LISTEN} needs a session of its own: through PgBouncer, the
 * database URL must name a session-pooled database.
 */
public final class PostgresInstanceSignals implements InstanceSignals, AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(PostgresInstanceSignals.class);
    private static final String CHANNEL = "hexaflow";
    /** PostgreSQL refuses a payload of 8,000 bytes or more; a message stays well below. */
    private static final int MAX_PAYLOAD_BYTES = 7_900;
    /** How long one wait for notifications lasts: how soon a lost connection or a close is noticed. */
    private static final int WAIT_MILLIS = 500;
    private static final long RECONNECT_MILLIS = 1_000;
    /**
     * How often the listening connection is asked a query: a connection a firewall or a failover dropped without a
     * word answers none, and is then found lost within {@link #SOCKET_TIMEOUT_SECONDS}, not never.
     */
    private static final long PROBE_MILLIS = 5_000;
    private static final String SOCKET_TIMEOUT_SECONDS = "10";
    /** Signals that could not be sent through the pool, sent again by the listening thread; bounded. */
    private static final int MAX_UNSENT = 10_000;

    private final String url;
    private final Properties login;
    private final Jdbi jdbi;
    private final String instance;
    private final Map<String, List<Consumer<String>>> listeners = new ConcurrentHashMap<>();
    private final List<Runnable> missed = new CopyOnWriteArrayList<>();
    private final java.util.Queue<String> unsent = new java.util.concurrent.ConcurrentLinkedQueue<>();
    private final Thread listening;
    private volatile boolean hearing;
    private volatile boolean closed;
    private volatile Connection connection;

    /**
     * Starts hearing on a connection of its own to {@code url}; {@code jdbi} (the pool) tells.
     *
     * @param instance this instance's id: what it tells itself is not heard
     */
    public PostgresInstanceSignals(String url, String user, String password, Jdbi jdbi, String instance) {
        this.url = url;
        this.login = PostgresDatabase.login(user, password);
        login.setProperty("ApplicationName", "hexaflow-signals");
        login.setProperty("tcpKeepAlive", "true");
        login.setProperty("socketTimeout", SOCKET_TIMEOUT_SECONDS);
        this.jdbi = jdbi;
        this.instance = instance;
        this.listening = new Thread(this::listen, "hexaflow-signals");
        listening.setDaemon(true);
        listening.start();
    }

    @Override
    public void tell(String topic, String message) {
        if (topic.indexOf(' ') >= 0) {
            throw new IllegalArgumentException("a topic has no space: " + topic);
        }
        // Sent on the listening connection too, which is not the pool's: a NUL (a user may hold one) is replaced
        // here, as the pool's statements replace it, so that PostgreSQL never refuses what is queued.
        String payload = NulFreeText.of(instance + " " + topic + " " + message);
        if (payload.getBytes(java.nio.charset.StandardCharsets.UTF_8).length > MAX_PAYLOAD_BYTES) {
            throw new IllegalArgumentException("a signal is " + MAX_PAYLOAD_BYTES + " bytes at most");
        }
        try {
            jdbi.useHandle(handle -> handle.createQuery("SELECT pg_notify(:channel, :payload)")
                    .bind("channel", CHANNEL).bind("payload", payload).mapTo(String.class).one());
        } catch (RuntimeException e) {
            // What it tells of is done and kept, so the caller is not failed for it: the listening thread sends it
            // on its own connection as soon as it can, so that no other instance keeps a changed row for good.
            if (unsent.size() < MAX_UNSENT) {
                unsent.add(payload);
            } else {
                LOG.warn("A signal to the other instances is dropped ({}): {} are waiting already", topic, MAX_UNSENT);
            }
            LOG.warn("Could not tell the other instances ({}) through the pool; it is sent again: {}", topic,
                    e.getMessage());
        }
    }

    @Override
    public void hear(String topic, Consumer<String> listener) {
        listeners.computeIfAbsent(topic, t -> new CopyOnWriteArrayList<>()).add(listener);
    }

    @Override
    public boolean hearing() {
        return hearing;
    }

    @Override
    public void onMissed(Runnable action) {
        missed.add(action);
    }

    /** Whether this instance is hearing now, or begins to within {@code millis}. */
    public boolean awaitHearing(long millis) throws InterruptedException {
        long until = System.nanoTime() + millis * 1_000_000;
        while (!hearing && System.nanoTime() < until) {
            Thread.sleep(10);
        }
        return hearing;
    }

    private void listen() {
        boolean lost = false;
        while (!closed) {
            try (Connection listener = new org.postgresql.Driver().connect(url, login)) {
                connection = listener;
                try (Statement listen = listener.createStatement()) {
                    listen.execute("LISTEN " + CHANNEL);
                }
                if (lost) {
                    LOG.info("Hearing the other instances again; what is kept in memory is read afresh");
                    missed.forEach(PostgresInstanceSignals::runQuietly);
                }
                hearing = true;
                PGConnection notifications = listener.unwrap(PGConnection.class);
                long probed = System.nanoTime();
                while (!closed) {
                    PGNotification[] heard = notifications.getNotifications(WAIT_MILLIS);
                    if (heard != null) {
                        for (PGNotification notification : heard) {
                            dispatch(notification.getParameter());
                        }
                    }
                    sendUnsent(listener);
                    if (System.nanoTime() - probed > PROBE_MILLIS * 1_000_000) {
                        try (Statement probe = listener.createStatement()) {
                            probe.execute("SELECT 1");
                        }
                        probed = System.nanoTime();
                    }
                }
            } catch (SQLException | RuntimeException e) {
                if (closed) {
                    return;
                }
                if (hearing || !lost) {
                    LOG.warn("Not hearing the other instances (retrying every second); what is kept in memory is "
                            + "not trusted meanwhile: {}", e.getMessage());
                }
                hearing = false;
                lost = true;
                missed.forEach(PostgresInstanceSignals::runQuietly);
                try {
                    Thread.sleep(RECONNECT_MILLIS);
                } catch (InterruptedException interrupted) {
                    return;
                }
            }
        }
    }

    /** Sends what the pool could not, on the listening connection; a failure leaves it for the next connection. */
    private void sendUnsent(Connection listener) throws SQLException {
        for (String payload = unsent.peek(); payload != null; payload = unsent.peek()) {
            try (java.sql.PreparedStatement notify = listener.prepareStatement("SELECT pg_notify(?, ?)")) {
                notify.setString(1, CHANNEL);
                notify.setString(2, payload);
                notify.execute();
            } catch (SQLException e) {
                if (e.getSQLState() == null || !e.getSQLState().startsWith("22")) {
                    throw e; // the connection's fault: sent again on the next one
                }
                // The payload's own fault (a data exception): sent never, so not before every later one.
                LOG.warn("A signal PostgreSQL refuses is dropped: {}", e.getMessage());
            }
            unsent.poll();
        }
    }

    private static void runQuietly(Runnable action) {
        try {
            action.run();
        } catch (RuntimeException e) {
            LOG.warn("Forgetting what was kept in memory failed: {}", e.toString());
        }
    }

    private void dispatch(String payload) {
        String[] parts = payload.split(" ", 3);
        if (parts.length < 3 || parts[0].equals(instance)) {
            return;
        }
        for (Consumer<String> listener : listeners.getOrDefault(parts[1], List.of())) {
            try {
                listener.accept(parts[2]);
            } catch (RuntimeException e) {
                LOG.warn("Acting on a signal from another instance ({}) failed: {}", parts[1], e.toString());
            }
        }
    }

    @Override
    public void close() {
        closed = true;
        hearing = false;
        listening.interrupt();
        Connection open = connection;
        if (open != null) {
            try {
                open.close();
            } catch (SQLException e) {
                // Closing anyway.
            }
        }
        try {
            listening.join(2_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
