package dev.hexaflow.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hexaflow.adapters.nodes.fakes.StopSwitch;
import dev.hexaflow.adapters.nodes.net.OutboundExchange;
import dev.hexaflow.adapters.nodes.tool.JdkSqlToolRunner;
import dev.hexaflow.adapters.persistence.PostgresCluster;
import dev.hexaflow.domain.net.OutboundPolicy;
import dev.hexaflow.domain.tool.ToolMessage;
import dev.hexaflow.domain.tool.ToolProviderType;
import dev.hexaflow.domain.tool.ToolRef;
import dev.hexaflow.workflow.port.out.ToolRunner.ToolException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The SQL tools on a real PostgreSQL 15 ({@link PostgresCluster}): what the read-only check lets through (a WITH
 * that deletes) is refused by PostgreSQL's read-only transaction, a slow query is cancelled at the time limit, and the
 * cluster's loopback address is held to the outbound policy.
 */
class SqlToolPostgresTest {

    private static final ToolRef QUERY = new ToolRef(ToolProviderType.PLUGIN, "junjiem/db_query/db_query",
            "sql_query");

    private final PostgresCluster cluster = PostgresCluster.get();
    private String name;

    @BeforeEach
    void createTable() throws Exception {
        name = cluster.createDatabase();
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE notes (id INT, body TEXT, at TIMESTAMP)");
            statement.execute("INSERT INTO notes VALUES (1, 'first', TIMESTAMP '2024-05-06 07:08:09'), (2, 'second',"
                    + " NULL)");
        }
    }

    @AfterEach
    void drop() {
        cluster.dropDatabase(name);
    }

    private Connection connect() throws Exception {
        return DriverManager.getConnection(cluster.url(name), PostgresCluster.USER, PostgresCluster.PASSWORD);
    }

    private JdkSqlToolRunner sql(String allow) {
        return new JdkSqlToolRunner(Optional.of(new JdkSqlToolRunner.Database(cluster.url(name), PostgresCluster.USER,
                PostgresCluster.PASSWORD, false, 100, Duration.ofSeconds(1))),
                new OutboundExchange(() -> OutboundPolicy.of(allow, "")));
    }

    @Test
    void aSelectAnswersTheRecordsWithTimestampsAsThePluginWritesThem() {
        List<ToolMessage> answer = sql("127.0.0.1").run(QUERY, Map.of("query_sql", "SELECT id, body, at FROM notes"
                + " ORDER BY id", "output_format", "json"), new StopSwitch());

        Map<String, Object> second = new java.util.LinkedHashMap<>();
        second.put("id", 2L);
        second.put("body", "second");
        second.put("at", null);
        assertThat(answer).containsExactly(new ToolMessage.Json(Map.of("records", List.of(Map.of("id", 1L, "body",
                "first", "at", "2024-05-06 07:08:09"), second))));
    }

    @Test
    void aWithThatDeletesIsRefusedByTheReadOnlyTransactionAndNothingIsDeleted() throws Exception {
        assertThatThrownBy(() -> sql("127.0.0.1").run(QUERY, Map.of("query_sql", "WITH gone AS (DELETE FROM notes"
                + " RETURNING id) SELECT count(*) FROM gone"), new StopSwitch()))
                .isInstanceOf(ToolException.class).hasMessageContaining("read-only transaction");
        try (Connection connection = connect(); Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery("SELECT count(*) FROM notes")) {
            rows.next();
            assertThat(rows.getLong(1)).isEqualTo(2);
        }
    }

    @Test
    void aQuerySlowerThanTheTimeLimitIsCancelledByTheServer() {
        long started = System.nanoTime();

        assertThatThrownBy(() -> sql("127.0.0.1").run(QUERY, Map.of("query_sql", "SELECT pg_sleep(10)"),
                new StopSwitch())).isInstanceOf(ToolException.class).hasMessageContaining("did not finish within 1 s");
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(8));
    }

    @Test
    void theClustersLoopbackAddressIsRefusedUnlessTheOperatorAllowsIt() {
        assertThatThrownBy(() -> sql("").run(QUERY, Map.of("query_sql", "SELECT 1"), new StopSwitch()))
                .isInstanceOf(ToolException.class).hasMessageContaining("The database: The address 127.0.0.1")
                .hasMessageContaining("HEXAFLOW_OUTBOUND_ALLOW");
    }
}
