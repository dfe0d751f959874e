package dev.hexaflow.adapters.persistence;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.hexaflow.application.common.StorageUnavailableException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import org.jdbi.v3.core.Jdbi;
import org.junit.jupiter.api.Test;

/**
 * What a real PostgreSQL answers, told apart: a session the server ended (as a fast shutdown ends every one) is the
 * database out of reach, even behind Jdbi's wrapping; a request's own mistakes (a key used twice, a value that is
 * no number, a table that does not exist) are not. The server stopped under a running Hexaflow, connections
 * refused and the pool's wait run out, is {@code PostgresOutageHttpTest}'s.
 */
class PostgresStorageHealthTest {

    private final PostgresStorageHealth health = new PostgresStorageHealth();

    @Test
    void aStatementOnASessionTheServerEndedIsTheDatabaseOutOfReachWithTheDriversWords() throws Exception {
        PostgresCluster cluster = PostgresCluster.get();
        String url = cluster.url(cluster.createDatabase());
        try (Connection ended = DriverManager.getConnection(url, PostgresCluster.USER, PostgresCluster.PASSWORD);
                Connection other = DriverManager.getConnection(url, PostgresCluster.USER, PostgresCluster.PASSWORD)) {
            int pid;
            try (Statement statement = ended.createStatement();
                    ResultSet result = statement.executeQuery("SELECT pg_backend_pid()")) {
                result.next();
                pid = result.getInt(1);
            }
            try (Statement statement = other.createStatement()) {
                statement.execute("SELECT pg_terminate_backend(" + pid + ")");
            }

            Throwable failure = catchThrowable(() -> {
                try (Statement statement = ended.createStatement()) {
                    statement.execute("SELECT 1");
                }
            });

            assertThat(health.unavailableBehind(failure)).hasValueSatisfying(unreachable -> {
                assertThat(unreachable.kind()).isEqualTo(StorageUnavailableException.Kind.UNREACHABLE);
                assertThat(unreachable.getMessage()).isEqualTo("The server cannot reach its database now. Please "
                        + "try again shortly.");
                assertThat(unreachable.detail()).matches(".+ \\(SQLState (57P01|08006)\\)");
            });
            assertThat(health.failed(failure)).isNotNull();
        }
    }

    @Test
    void behindJdbiTheEndedSessionIsStillTheDatabaseOutOfReach() throws Exception {
        PostgresCluster cluster = PostgresCluster.get();
        String url = cluster.url(cluster.createDatabase());
        Jdbi jdbi = Jdbi.create(url, PostgresCluster.USER, PostgresCluster.PASSWORD);
        try (Connection other = DriverManager.getConnection(url, PostgresCluster.USER, PostgresCluster.PASSWORD);
                var handle = jdbi.open()) {
            int pid = handle.createQuery("SELECT pg_backend_pid()").mapTo(Integer.class).one();
            try (Statement statement = other.createStatement()) {
                statement.execute("SELECT pg_terminate_backend(" + pid + ")");
            }

            Throwable failure = catchThrowable(() -> handle.createQuery("SELECT 1").mapTo(Integer.class).one());

            assertThat(failure.getClass().getName()).startsWith("org.jdbi");
            assertThat(health.unavailableBehind(failure)).isPresent();
        }
    }

    @Test
    void aRequestsOwnSqlErrorIsNotTheDatabaseOutOfReach() throws Exception {
        PostgresCluster cluster = PostgresCluster.get();
        String url = cluster.url(cluster.createDatabase());
        try (Connection connection = DriverManager.getConnection(url, PostgresCluster.USER, PostgresCluster.PASSWORD);
                Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE t (id INTEGER PRIMARY KEY)");
            statement.execute("INSERT INTO t VALUES (1)");

            Throwable duplicate = catchThrowable(() -> statement.execute("INSERT INTO t VALUES (1)"));
            Throwable notANumber = catchThrowable(() -> statement.execute("INSERT INTO t VALUES ('x')"));
            Throwable noTable = catchThrowable(() -> statement.execute("SELECT * FROM missing"));

            assertThat(duplicate).hasFieldOrPropertyWithValue("SQLState", "23505");
            assertThat(notANumber).hasFieldOrPropertyWithValue("SQLState", "22P02");
            for (Throwable own : new Throwable[] {duplicate, notANumber, noTable,
                    new IllegalStateException("not the database", duplicate)}) {
                assertThat(health.unavailableBehind(own)).as(own.getMessage()).isEmpty();
                assertThat(health.failed(own)).isNull();
            }
        }
        assertThat(health.problem()).isEmpty();
    }
}
