package dev.hexaflow.adapters.persistence;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.UserPrincipal;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import javax.sql.DataSource;
import org.jdbi.v3.core.Jdbi;
import org.junit.jupiter.api.Assumptions;

/**
 * A throwaway PostgreSQL 15 cluster for the tests of one JVM: made by Debian's {@code initdb} in a temporary
 * directory, started by {@code pg_ctl} on a free port on loopback on first use, stopped and deleted at the JVM's
 * exit. PostgreSQL refuses to run as root: as root the binaries run as the {@code postgres} user. Durability is off
 * (fsync, full page writes): nothing here outlives the JVM. A server test takes a database of its own, cloned from
 * a template migrated once, so a new database costs a copy, not a migration; a repository test takes the scratch
 * database, emptied.
 *
 * <p>A test that stops the server under a running Hexaflow takes a cluster of its own ({@link #own()}), stopped and
 * started again by {@link #stopServer} and {@link #startServer}, and deleted by {@link #close}, so that the JVM's
 * shared cluster never goes away under another test.
 *
 * <p>Where the binaries are absent (a machine without PostgreSQL) the calling test is skipped, or failed where
 * {@code CI=true}: a CI run must not pass by skipping. The system property {@code hexaflow.postgresql.bin} names
 * another directory of binaries.
 */
public final class PostgresCluster implements AutoCloseable {

    public static final String USER = "postgres";
    public static final String PASSWORD = "hexaflow-test-password";

    private static final Path BIN = Path.of(System.getProperty("hexaflow.postgresql.bin",
            "/usr/lib/postgresql/15/bin"));
    private static final String TEMPLATE = "hexaflow_template";
    private static final AtomicInteger DATABASES = new AtomicInteger();

    private static PostgresCluster started;
    private static String failure;

    private final Path directory;
    private final int port;
    private final String options;
    private PostgresDatabase scratch;

    private PostgresCluster(Path directory, int port, String options) {
        this.directory = directory;
        this.port = port;
        this.options = options;
    }

    /** The JVM's cluster, started on the first call; the calling test is skipped (or failed on CI) without one. */
    public static synchronized PostgresCluster get() {
        if (started == null && failure == null) {
            failure = missingBinaries();
            if (failure == null) {
                started = startNew();
            }
        }
        if (started == null) {
            skip(failure);
        }
        return started;
    }

    /**
     * A cluster of the caller's own, started now, for a test that stops and starts its server; {@link #close} stops
     * and deletes it. The calling test is skipped (or failed on CI) without PostgreSQL's binaries.
     */
    public static PostgresCluster own() {
        String missing = missingBinaries();
        if (missing != null) {
            skip(missing);
        }
        return startNew();
    }

    private static String missingBinaries() {
        return Files.isExecutable(BIN.resolve("initdb")) && Files.isExecutable(BIN.resolve("pg_ctl")) ? null
                : "PostgreSQL's server binaries are not in " + BIN;
    }

    private static void skip(String why) {
        if ("true".equalsIgnoreCase(System.getenv("CI"))) {
            throw new AssertionError(why + ", and CI=true: on CI the PostgreSQL tests must run");
        }
        Assumptions.abort(why + ": the PostgreSQL tests are skipped");
    }

    private static PostgresCluster startNew() {
        try {
            return start();
        } catch (IOException | RuntimeException e) {
            throw new IllegalStateException("cannot start a PostgreSQL cluster: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while starting a PostgreSQL cluster", e);
        }
    }

    /**
     * Stops the server as {@code pg_ctl stop -m mode} does ({@code fast}: sessions are ended with {@code 57P01};
     * {@code immediate}: the server quits at once), and waits until it has stopped.
     */
    public void stopServer(String mode) {
        pgCtl("-m", mode, "-w", "stop");
    }

    /** Starts the stopped server again, on the same port, and waits until it takes connections. */
    public void startServer() {
        pgCtl("-o", options, "-l", directory.resolve("log").toString(), "-w", "-t", "60", "start");
    }

    private void pgCtl(String... arguments) {
        List<String> command = new ArrayList<>(List.of(BIN.resolve("pg_ctl").toString(), "-D",
                directory.resolve("data").toString()));
        command.addAll(List.of(arguments));
        try {
            run(command.toArray(String[]::new));
        } catch (IOException e) {
            throw new IllegalStateException(e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while running pg_ctl", e);
        }
    }

    /** Stops a cluster of one's own ({@link #own}) and deletes it; the JVM's shared cluster goes at the JVM's exit. */
    @Override
    public void close() {
        if (this != started) {
            stop();
        }
    }

    private static PostgresCluster start() throws IOException, InterruptedException {
        Path directory = Files.createTempDirectory("hexaflow-postgresql");
        Path data = directory.resolve("data");
        Path passwordFile = directory.resolve("password");
        Files.writeString(passwordFile, PASSWORD + "\n", StandardCharsets.UTF_8);
        if (asRoot()) {
            UserPrincipal postgres = directory.getFileSystem().getUserPrincipalLookupService()
                    .lookupPrincipalByName("postgres");
            Files.setOwner(directory, postgres);
            Files.setOwner(passwordFile, postgres);
        }
        run(BIN.resolve("initdb").toString(), "-D", data.toString(), "-U", USER, "--pwfile=" + passwordFile,
                "--auth-local=trust", "--auth-host=scram-sha-256", "-E", "UTF8", "--no-locale", "--no-sync");
        int port;
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = socket.getLocalPort();
        }
        String options = "-p " + port + " -c listen_addresses=127.0.0.1 -k " + directory
                + " -c fsync=off -c full_page_writes=off -c synchronous_commit=off -c max_connections=200";
        run(BIN.resolve("pg_ctl").toString(), "-D", data.toString(), "-o", options, "-l",
                directory.resolve("log").toString(), "-w", "-t", "60", "start");
        PostgresCluster cluster = new PostgresCluster(directory, port, options);
        Runtime.getRuntime().addShutdownHook(new Thread(cluster::stop, "hexaflow-postgresql-stop"));
        cluster.execute("CREATE DATABASE " + TEMPLATE);
        PostgresDatabase.open(cluster.url(TEMPLATE), USER, PASSWORD).close();
        return cluster;
    }

    private static boolean asRoot() {
        return "root".equals(System.getProperty("user.name"));
    }

    /** Runs a PostgreSQL binary, as the postgres user when this JVM runs as root, and fails on its failure. */
    private static void run(String... command) throws IOException, InterruptedException {
        List<String> line = new ArrayList<>();
        if (asRoot()) {
            line.addAll(List.of("runuser", "-u", "postgres", "--"));
        }
        line.addAll(List.of(command));
        Process process = new ProcessBuilder(line).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!process.waitFor(90, TimeUnit.SECONDS) || process.exitValue() != 0) {
            throw new IOException(String.join(" ", line) + " failed: " + output);
        }
    }

    private void stop() {
        try {
            run(BIN.resolve("pg_ctl").toString(), "-D", directory.resolve("data").toString(), "-m", "immediate",
                    "-w", "stop");
        } catch (IOException | InterruptedException e) {
            // The JVM is ending: a cluster left running is found by its directory.
        }
        try (Stream<Path> files = Files.walk(directory)) {
            files.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        } catch (IOException e) {
            // A temporary directory left behind.
        }
    }

    /** The JDBC URL of a database of this cluster. */
    public String url(String database) {
        return "jdbc:postgresql://127.0.0.1:" + port + "/" + database;
    }

    public int port() {
        return port;
    }

    /** A new database, empty and migrated (a copy of the template), for a test to open by its URL. */
    public String createDatabase() {
        String name = "hexaflow_" + DATABASES.incrementAndGet();
        // A copy needs the template to itself: a connection to it ends a moment after its pool let it go.
        for (int attempt = 1; ; attempt++) {
            try {
                execute("CREATE DATABASE " + name + " TEMPLATE " + TEMPLATE + " STRATEGY FILE_COPY");
                return name;
            } catch (IllegalStateException e) {
                if (attempt == 50) {
                    throw e;
                }
                try {
                    Thread.sleep(20);
                } catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                    throw e;
                }
            }
        }
    }

    /** Drops a database, closing whatever connections are left to it. */
    public void dropDatabase(String name) {
        execute("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)");
    }

    /**
     * The JVM's scratch database, emptied: every table but Flyway's, with its references off for the moment. For
     * a test of repositories, which wants an empty schema per test; emptying a dozen small tables takes
     * milliseconds where a new database and a new pool take a quarter of a second. Closing it does nothing: the
     * next test empties it again, whatever this one left.
     */
    public synchronized Database emptyDatabase() {
        if (scratch == null) {
            scratch = PostgresDatabase.connect(url(createDatabase()), USER, PASSWORD);
        }
        scratch.jdbi().useTransaction(handle -> {
            handle.execute("SET LOCAL session_replication_role = replica");
            for (String table : handle.createQuery("SELECT table_name FROM information_schema.tables WHERE "
                    + "table_schema = 'public' AND table_type = 'BASE TABLE' AND table_name <> "
                    + "'flyway_schema_history'").mapTo(String.class).list()) {
                handle.execute("DELETE FROM " + table);
            }
        });
        PostgresDatabase database = scratch;
        return new Database() {
            @Override
            public Jdbi jdbi() {
                return database.jdbi();
            }

            @Override
            public DataSource dataSource() {
                return database.dataSource();
            }

            @Override
            public void close() {
            }
        };
    }

    private void execute(String sql) {
        try (Connection connection = DriverManager.getConnection(url("postgres"), USER, PASSWORD);
                Statement statement = connection.createStatement()) {
            statement.execute(sql);
        } catch (SQLException e) {
            throw new IllegalStateException(sql + ": " + e.getMessage(), e);
        }
    }
}
