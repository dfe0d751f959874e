package dev.hexaflow.adapters.nodes.tool;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hexaflow.adapters.nodes.fakes.StopSwitch;
import dev.hexaflow.adapters.nodes.net.OutboundExchange;
import dev.hexaflow.domain.net.OutboundPolicy;
import dev.hexaflow.domain.tool.ToolMessage;
import dev.hexaflow.domain.tool.ToolProviderType;
import dev.hexaflow.domain.tool.ToolRef;
import dev.hexaflow.workflow.port.out.ToolRunner.ToolException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The SQL plugins' tools against a real H2 database in memory. */
class JdkSqlToolRunnerTest {

    private static final ToolRef EXECUTE = new ToolRef(ToolProviderType.PLUGIN, "hjlarry/database/database",
            "sql_execute");
    private static final ToolRef QUERY = new ToolRef(ToolProviderType.PLUGIN, "junjiem/db_query/db_query",
            "sql_query");

    private final String url = "jdbc:h2:mem:sql-tool-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1";
    private Connection keeper;

    @BeforeEach
    void createTable() throws Exception {
        keeper = DriverManager.getConnection(url, "sa", "");
        try (Statement statement = keeper.createStatement()) {
            statement.execute("CREATE TABLE books (id INT PRIMARY KEY, title VARCHAR(100), price DECIMAL(6,2),"
                    + " added DATE)");
            statement.execute("INSERT INTO books VALUES (1, 'Dune', 9.50, DATE '2024-01-02'),"
                    + " (2, 'Emma | Austen', 4.00, NULL), (3, 'Ulysses', 12.25, DATE '2024-03-04')");
        }
    }

    @AfterEach
    void close() throws Exception {
        keeper.close();
    }

    private JdkSqlToolRunner runner(boolean writes, int maxRows, String allow) {
        return new JdkSqlToolRunner(Optional.of(new JdkSqlToolRunner.Database(url, "sa", "", writes, maxRows,
                Duration.ofSeconds(1))), new OutboundExchange(() -> OutboundPolicy.of(allow, "")));
    }

    private long count() throws Exception {
        try (Statement statement = keeper.createStatement();
                ResultSet rows = statement.executeQuery("SELECT COUNT(*) FROM books")) {
            rows.next();
            return rows.getLong(1);
        }
    }

    @Test
    void sqlExecuteAnswersTheRowsAsJsonByDefaultAndAsMarkdownOrCsvWhenAsked() {
        JdkSqlToolRunner sql = runner(false, 10, "");

        List<ToolMessage> json = sql.run(EXECUTE, Map.of("query", "SELECT id, title, price, added FROM books"
                + " WHERE id < 3 ORDER BY id"), new StopSwitch());
        List<ToolMessage> markdown = sql.run(EXECUTE, Map.of("query", "select id, title from books order by id",
                "format", "md"), new StopSwitch());
        List<ToolMessage> csv = sql.run(EXECUTE, Map.of("query", "select id, title from books where id = 2",
                "format", "csv"), new StopSwitch());

        assertThat(json).containsExactly(new ToolMessage.Json(Map.of("result", List.of(
                java.util.Map.of("ID", 1L, "TITLE", "Dune", "PRICE", 9.5, "ADDED", "2024-01-02"),
                mapWithNull()))));
        assertThat(((ToolMessage.Text) markdown.get(0)).text()).isEqualTo("""
                | ID | TITLE          |
                |----|----------------|
                | 1  | Dune           |
                | 2  | Emma \\| Austen |
                | 3  | Ulysses        |""");
        ToolMessage.Blob file = (ToolMessage.Blob) csv.get(0);
        assertThat(new String(file.content(), StandardCharsets.UTF_8)).isEqualTo("ID,TITLE\n2,Emma | Austen\n");
        assertThat(file.mimeType()).isEqualTo("text/csv");
        assertThat(file.filename()).isEqualTo("result.csv");
    }

    private static Map<String, Object> mapWithNull() {
        Map<String, Object> row = new java.util.LinkedHashMap<>();
        row.put("ID", 2L);
        row.put("TITLE", "Emma | Austen");
        row.put("PRICE", 4.0);
        row.put("ADDED", null);
        return row;
    }

    @Test
    void sqlQueryAnswersAMarkdownTableByDefaultAndRecordsAsJson() {
        JdkSqlToolRunner sql = runner(false, 10, "");

        List<ToolMessage> json = sql.run(QUERY, Map.of("query_sql", "SELECT title FROM books WHERE id = 3",
                "output_format", "json", "db_host", "ignored.example"), new StopSwitch());

        assertThat(json).containsExactly(new ToolMessage.Json(Map.of("records", List.of(Map.of("TITLE",
                "Ulysses")))));
        assertThat(sql.describe(new ToolRef(ToolProviderType.PLUGIN, "someone/db_query_pre_auth/db_query_pre_auth",
                "sql_query"))).isPresent();
        assertThat(sql.describe(new ToolRef(ToolProviderType.PLUGIN, "hjlarry/database/database", "text2sql")))
                .isEmpty();
    }

    @Test
    void aReadOnlyBindingRefusesAnUpdateAndASecondStatementAndChangesNothing() throws Exception {
        JdkSqlToolRunner sql = runner(false, 10, "");

        assertThatThrownBy(() -> sql.run(EXECUTE, Map.of("query", "UPDATE books SET price = 0"), new StopSwitch()))
                .isInstanceOf(ToolException.class).hasMessageContaining("read-only").hasMessageContaining("UPDATE");
        assertThatThrownBy(() -> sql.run(EXECUTE, Map.of("query", "SELECT 1; DROP TABLE books"), new StopSwitch()))
                .isInstanceOf(ToolException.class).hasMessage("Only a single query SQL can be filled");
        assertThatThrownBy(() -> sql.run(EXECUTE, Map.of("query", "/* SELECT */ DELETE FROM books"),
                new StopSwitch())).isInstanceOf(ToolException.class).hasMessageContaining("DELETE");
        // A semicolon inside a string is no second statement.
        assertThat(sql.run(EXECUTE, Map.of("query", "SELECT 'a;b' AS x", "format", "md"), new StopSwitch()))
                .containsExactly(new ToolMessage.Text("| X   |\n|-----|\n| a;b |"));
        assertThat(count()).isEqualTo(3);
    }

    @Test
    void aBindingThatAllowsWritesRunsAnUpdateAndCommitsIt() throws Exception {
        List<ToolMessage> answer = runner(true, 10, "").run(EXECUTE, Map.of("query",
                "DELETE FROM books WHERE id = 2"), new StopSwitch());

        assertThat(answer).containsExactly(new ToolMessage.Text("Query executed successfully. Affected rows: 1"));
        assertThat(count()).isEqualTo(2);
    }

    @Test
    void aQueryAnsweringMoreRowsThanTheLimitFailsTheTool() {
        assertThatThrownBy(() -> runner(false, 2, "").run(EXECUTE, Map.of("query", "SELECT * FROM books"),
                new StopSwitch())).isInstanceOf(ToolException.class)
                .hasMessageContaining("more than 2 rows").hasMessageContaining("HEXAFLOW_SQL_MAX_ROWS");
        assertThat(runner(false, 3, "").run(EXECUTE, Map.of("query", "SELECT id FROM books"), new StopSwitch()))
                .hasSize(1);
    }

    @Test
    void aQuerySlowerThanTheTimeLimitIsCancelled() {
        long started = System.nanoTime();

        assertThatThrownBy(() -> runner(false, 10, "").run(EXECUTE, Map.of("query",
                "SELECT COUNT(*) FROM SYSTEM_RANGE(1, 100000) a, SYSTEM_RANGE(1, 100000) b"), new StopSwitch()))
                .isInstanceOf(ToolException.class).hasMessageContaining("did not finish within 1 s");
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(10));
    }

    @Test
    void aStopEndsAQueryInFlight() {
        JdkSqlToolRunner patient = new JdkSqlToolRunner(Optional.of(new JdkSqlToolRunner.Database(url, "sa", "",
                false, 10, Duration.ofSeconds(60))), new OutboundExchange(() -> OutboundPolicy.DEFAULT));
        StopSwitch stop = new StopSwitch();
        java.util.concurrent.CompletableFuture.delayedExecutor(300, java.util.concurrent.TimeUnit.MILLISECONDS)
                .execute(stop::pull);
        long started = System.nanoTime();

        assertThatThrownBy(() -> patient.run(EXECUTE, Map.of("query",
                "SELECT COUNT(*) FROM SYSTEM_RANGE(1, 100000) a, SYSTEM_RANGE(1, 100000) b"), stop))
                .isInstanceOf(ToolException.class).hasMessage("The run stopped while the query ran");
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(10));
    }

    @Test
    void aNetworkDatabaseOnAnAddressOutsideThePolicyIsRefusedBeforeAnyConnection() {
        JdkSqlToolRunner loopbackRefused = new JdkSqlToolRunner(Optional.of(new JdkSqlToolRunner.Database(
                "jdbc:postgresql://127.0.0.1:1/shop", "u", "p", false, 10, Duration.ofSeconds(1))),
                new OutboundExchange(() -> OutboundPolicy.DEFAULT));
        JdkSqlToolRunner denied = new JdkSqlToolRunner(Optional.of(new JdkSqlToolRunner.Database(
                "jdbc:h2:tcp://10.0.0.5:9092/~/shop", "u", "p", false, 10, Duration.ofSeconds(1))),
                new OutboundExchange(() -> OutboundPolicy.of("10.0.0.0/8", "10.0.0.5")));

        assertThatThrownBy(() -> loopbackRefused.run(EXECUTE, Map.of("query", "SELECT 1"), new StopSwitch()))
                .isInstanceOf(ToolException.class).hasMessageContaining("127.0.0.1")
                .hasMessageContaining("HEXAFLOW_OUTBOUND_ALLOW");
        assertThatThrownBy(() -> denied.run(EXECUTE, Map.of("query", "SELECT 1"), new StopSwitch()))
                .isInstanceOf(ToolException.class).hasMessageContaining("HEXAFLOW_OUTBOUND_DENY");
    }

    @Test
    void noBoundDatabaseOrADatabaseTheNodeNamesFailsTheToolSayingWhatToSet() {
        JdkSqlToolRunner unbound = new JdkSqlToolRunner(Optional.empty(),
                new OutboundExchange(() -> OutboundPolicy.DEFAULT));

        assertThatThrownBy(() -> unbound.run(EXECUTE, Map.of("query", "SELECT 1"), new StopSwitch()))
                .isInstanceOf(ToolException.class).hasMessageContaining("HEXAFLOW_SQL_URL");
        assertThatThrownBy(() -> runner(false, 10, "").run(EXECUTE, Map.of("query", "SELECT 1", "db_uri",
                "sqlite:///x.db"), new StopSwitch())).isInstanceOf(ToolException.class)
                .hasMessageContaining("db_uri is not taken here");
    }
}
