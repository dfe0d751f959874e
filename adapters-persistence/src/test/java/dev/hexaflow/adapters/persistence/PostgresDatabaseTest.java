package dev.hexaflow.adapters.persistence;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hexaflow.adapters.persistence.jdbi.JdbiAppRepository;
import dev.hexaflow.adapters.persistence.jdbi.JdbiEndUserRepository;
import dev.hexaflow.adapters.persistence.jdbi.SqlDialect;
import dev.hexaflow.domain.app.EndUser;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import org.junit.jupiter.api.Test;

/**
 * What only the PostgreSQL store does: it speaks its own dialect, keeps a NUL character (which its text cannot
 * hold) as U+FFFD instead of failing the statement, and says in one line why it cannot be opened.
 */
class PostgresDatabaseTest {

    @Test
    void aDatabaseOnPostgresqlGivesItsRepositoriesThePostgresqlDialect() {
        try (Database database = PostgresCluster.get().emptyDatabase()) {
            assertThat(SqlDialect.of(database.jdbi())).isEqualTo(SqlDialect.POSTGRESQL);
        }
        try (H2Database h2 = H2Database.openInMemory("dialect")) {
            assertThat(SqlDialect.of(h2.jdbi())).isEqualTo(SqlDialect.H2);
        }
    }

    @Test
    void aNulCharacterInAStringIsKeptAsTheReplacementCharacterAndFoundByTheSameText() {
        try (Database database = PostgresCluster.get().emptyDatabase()) {
            new JdbiAppRepository(database.jdbi()).add(WorkflowFixtures.app(WorkflowFixtures.APP, "code1", 10));
            try (JdbiEndUserRepository users = new JdbiEndUserRepository(database.jdbi())) {
                // Through the group-commit writer's own prepared statements, and then through Jdbi's.
                EndUser kept = users.findOrAdd(new EndUser("u1", WorkflowFixtures.APP, "ada\u0000x", 10));

                assertThat(kept.sessionId()).isEqualTo("ada\u0000x");
                assertThat(users.find(WorkflowFixtures.APP, "ada\u0000x")).map(EndUser::id).contains("u1");
            }
            String stored = database.jdbi().withHandle(handle -> handle.createQuery("SELECT session_id FROM end_user")
                    .mapTo(String.class).one());
            assertThat(stored).isEqualTo("ada\uFFFDx");
        }
    }

    @Test
    void aUrlThatIsNotPostgresqlIsRefused() {
        assertThatThrownBy(() -> PostgresDatabase.open("jdbc:h2:mem:x", "sa", ""))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("jdbc:postgresql://");
    }

    @Test
    void aServerThatIsNotThereOrRefusesTheLoginIsSaidInOneLine() throws IOException {
        int closed;
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closed = socket.getLocalPort();
        }
        PostgresCluster cluster = PostgresCluster.get();

        assertThatThrownBy(() -> PostgresDatabase.open("jdbc:postgresql://127.0.0.1:" + closed + "/x", "u", "p"))
                .isInstanceOf(PostgresDatabase.UnavailableException.class)
                .hasMessageStartingWith("Cannot connect to the PostgreSQL database at jdbc:postgresql://127.0.0.1:"
                        + closed + "/x: ")
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
        assertThatThrownBy(() -> PostgresDatabase.open(cluster.url("postgres") + "?ApplicationName=x",
                PostgresCluster.USER, "not-the-password"))
                .isInstanceOf(PostgresDatabase.UnavailableException.class)
                .hasMessageContaining("password authentication failed").hasMessageNotContaining("ApplicationName");
    }
}
