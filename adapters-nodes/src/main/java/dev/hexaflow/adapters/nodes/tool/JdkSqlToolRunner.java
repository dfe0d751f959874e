package dev.hexaflow.adapters.nodes.tool;

import dev.hexaflow.adapters.nodes.net.OutboundExchange;
import dev.hexaflow.domain.tool.ToolDescription;
import dev.hexaflow.domain.tool.ToolMessage;
import dev.hexaflow.domain.tool.ToolProviderType;
import dev.hexaflow.domain.tool.ToolRef;
import dev.hexaflow.workflow.engine.StopSignal;
import dev.hexaflow.workflow.port.out.ToolRunner;
import java.net.URI;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLTimeoutException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The SQL plugins' tools, {@code database}'s {@code sql_execute} (hjlarry's, and its forks) and {@code db_query}'s
 * {@code sql_query} (junjiem's), run over JDBC (the JDK's {@code java.sql}, with the H2 and PostgreSQL drivers the
 * server has) against the one database the operator binds in settings. The plugins take their database from the
 * provider's credentials, never from the app, so a node's own connection fields ({@code db_uri}, {@code db_host} …)
 * are not used. Read-only unless the binding allows writes: the connection is read-only, only one statement that
 * reads (SELECT, WITH, SHOW, EXPLAIN, VALUES, TABLE) runs, and its transaction is rolled back. At most
 * {@code maxRows} rows and {@code timeout} per query; the database's host is held to the outbound policy at each call
 * (an H2 file or in-memory database has none: the operator named it).
 */
public final class JdkSqlToolRunner implements ToolRunner {

    /** The database the operator binds; its password is never shown or logged. */
    public record Database(String url, String user, String password, boolean writes, int maxRows, Duration timeout) {
        @Override
        public String toString() {
            return "Database[" + url + ", user " + user + (writes ? ", writes" : ", read-only") + "]";
        }
    }

    private static final ToolDescription EXECUTE = new ToolDescription(new ToolRef(ToolProviderType.BUILTIN,
            "database", "sql_execute"), "This tool is used to execute SQL in an existing database.",
            BuiltinArguments.schema(List.of("query", "format"), Map.of(), List.of("query")));
    private static final ToolDescription QUERY = new ToolDescription(new ToolRef(ToolProviderType.BUILTIN,
            "db_query", "sql_query"), "A tool for executing SQL query.",
            BuiltinArguments.schema(List.of("query_sql", "output_format"), Map.of(), List.of("query_sql")));

    private final Optional<Database> database;
    private final OutboundExchange outbound;

    public JdkSqlToolRunner(Optional<Database> database, OutboundExchange outbound) {
        this.database = database;
        this.outbound = outbound;
    }

    /** The tools it runs, as {@code provider/tool} (any author's plugin of that name). */
    public static List<String> labels() {
        return List.of("database/sql_execute", "db_query/sql_query");
    }

    /** The plugin's own name: {@code hjlarry/database/database} is {@code database}. */
    private static Optional<ToolDescription> ours(ToolRef tool) {
        if (tool.type() != ToolProviderType.BUILTIN && tool.type() != ToolProviderType.PLUGIN) {
            return Optional.empty();
        }
        String[] parts = tool.provider().split("/");
        String name = parts[parts.length - 1];
        if (name.equals("database") && tool.tool().equals("sql_execute")) {
            return Optional.of(EXECUTE);
        }
        boolean dbQuery = name.equals("db_query") || name.equals("db_query_pre_auth");
        return dbQuery && tool.tool().equals("sql_query") ? Optional.of(QUERY) : Optional.empty();
    }

    @Override
    public Optional<ToolDescription> describe(ToolRef tool) {
        return ours(tool).map(known -> new ToolDescription(tool, known.description(), known.inputSchema()));
    }

    @Override
    public List<ToolMessage> run(ToolRef tool, Map<String, Object> arguments, StopSignal stop) {
        Database bound = database.orElseThrow(() -> new ToolException("No database is bound: set HEXAFLOW_SQL_URL"
                + " (and HEXAFLOW_SQL_USER, HEXAFLOW_SQL_PASSWORD) for the SQL tools to query"));
        BuiltinArguments args = new BuiltinArguments(arguments);
        boolean execute = ours(tool).orElseThrow() == EXECUTE;
        if (execute && !args.text("db_uri", "").isBlank()) {
            throw new ToolException("db_uri is not taken here: the operator binds the database (HEXAFLOW_SQL_URL)");
        }
        String sql = args.text(execute ? "query" : "query_sql", "").strip();
        if (sql.isEmpty()) {
            throw new ToolException("Please fill in the query SQL, for example: select * from tbl_name");
        }
        String format = execute ? args.text("format", "json") : args.text("output_format", "markdown");
        if (!List.of("json", "md", "csv", "markdown").contains(format)) {
            throw new ToolException("The output format " + format + " is not made here; json, md or csv are");
        }
        check(bound, sql);
        checkHost(bound.url());
        return answer(query(bound, sql, stop), format, execute);
    }

    /** What the binding lets run: one statement, and one that reads unless writes are allowed. */
    private static void check(Database bound, String sql) {
        if (SqlStatements.isSeveral(sql)) {
            throw new ToolException("Only a single query SQL can be filled");
        }
        String keyword = SqlStatements.firstKeyword(sql);
        if (!bound.writes() && !SqlStatements.READING.contains(keyword)) {
            throw new ToolException("The database is bound read-only: only SELECT, WITH, SHOW, EXPLAIN, VALUES and"
                    + " TABLE run, not " + (keyword.isEmpty() ? "this statement" : keyword)
                    + " (HEXAFLOW_SQL_WRITES=true allows others)");
        }
    }

    /** Each host a network JDBC URL names ({@code jdbc:postgresql://a:5432,b/db}) checked against the policy. */
    void checkHost(String url) {
        int slashes = url.indexOf("//");
        if (slashes < 0) {
            return;
        }
        String rest = url.substring(slashes + 2);
        int end = rest.length();
        for (char stop : new char[] {'/', '?', ';'}) {
            int at = rest.indexOf(stop);
            end = at >= 0 ? Math.min(end, at) : end;
        }
        String authority = rest.substring(0, end);
        authority = authority.substring(authority.lastIndexOf('@') + 1);
        for (String host : authority.split(",")) {
            try {
                URI uri = URI.create("tcp://" + host.strip());
                outbound.check(uri.getPort() < 0 ? URI.create("tcp://" + host.strip() + ":5432") : uri);
            } catch (OutboundExchange.RefusedException e) {
                throw new ToolException("The database: " + e.getMessage());
            } catch (UnknownHostException e) {
                throw new ToolException("The database's host " + host + " is not known");
            } catch (IllegalArgumentException e) {
                throw new ToolException("The database URL's host " + host + " cannot be read");
            }
        }
    }

    private record Result(List<Map<String, Object>> records, List<String> columns, int updated) {
    }

    private static Result query(Database bound, String sql, StopSignal stop) {
        Properties login = new Properties();
        if (bound.user() != null) {
            login.setProperty("user", bound.user());
        }
        if (bound.password() != null) {
            login.setProperty("password", bound.password());
        }
        AtomicBoolean stopped = new AtomicBoolean();
        try (Connection connection = DriverManager.getConnection(bound.url(), login)) {
            connection.setReadOnly(!bound.writes());
            connection.setAutoCommit(false);
            try (Statement statement = connection.createStatement();
                    AutoCloseable cancel = stop.onStop(() -> cancel(statement, stopped))) {
                statement.setQueryTimeout((int) Math.max(1, bound.timeout().toSeconds()));
                statement.setMaxRows(bound.maxRows() + 1);
                Result result = statement.execute(sql) ? rows(statement.getResultSet(), bound.maxRows())
                        : new Result(List.of(), List.of(), statement.getUpdateCount());
                if (bound.writes()) {
                    connection.commit();
                }
                return result;
            } finally {
                if (!bound.writes()) {
                    connection.rollback();
                }
            }
        } catch (ToolException e) {
            throw e;
        } catch (SQLException e) {
            if (stopped.get()) {
                throw new ToolException("The run stopped while the query ran");
            }
            // PostgreSQL reports its timeout as a cancelled statement (57014), H2 as SQLTimeoutException.
            if (e instanceof SQLTimeoutException || "57014".equals(e.getSQLState())) {
                throw new ToolException("The query did not finish within " + bound.timeout().toSeconds()
                        + " s (HEXAFLOW_SQL_TIMEOUT_SECONDS)");
            }
            throw new ToolException("Error executing SQL: " + e.getMessage());
        } catch (Exception e) {
            throw new ToolException("Error executing SQL: " + e.getMessage());
        }
    }

    private static Result rows(ResultSet rows, int maxRows) throws SQLException {
        try (rows) {
            List<String> columns = new ArrayList<>();
            for (int column = 1; column <= rows.getMetaData().getColumnCount(); column++) {
                columns.add(rows.getMetaData().getColumnLabel(column));
            }
            return new Result(SqlTables.records(rows, maxRows), columns, -1);
        }
    }

    private static void cancel(Statement statement, AtomicBoolean stopped) {
        stopped.set(true);
        try {
            statement.cancel();
        } catch (SQLException e) {
            // The statement ended on its own meanwhile.
        }
    }

    private static List<ToolMessage> answer(Result result, String format, boolean execute) {
        if (result.updated() >= 0) {
            return List.of(new ToolMessage.Text("Query executed successfully. Affected rows: " + result.updated()));
        }
        return switch (format) {
            case "json" -> List.of(new ToolMessage.Json(Map.of(execute ? "result" : "records", result.records())));
            case "csv" -> List.of(new ToolMessage.Blob(SqlTables.csv(result.records(), result.columns())
                    .getBytes(StandardCharsets.UTF_8), "text/csv", "result.csv"));
            default -> List.of(new ToolMessage.Text(SqlTables.markdown(result.records(), result.columns())));
        };
    }
}
