package dev.hexaflow.app.config;

import dev.hexaflow.app.cli.UsageException;
import dev.hexaflow.engine.EngineConfiguration;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/**
 * Everything an operator can set, from flags first and the environment second, with defaults for a first
 * start on a laptop.
 *
 * @param adminToken the admin token set by HEXAFLOW_ADMIN_TOKEN; when empty, one is made and kept in the data dir
 * @param engine     how the workflow engine is set up
 * @param service    the workflow service's limits
 * @param database   the PostgreSQL server that keeps the data (HEXAFLOW_DATABASE_URL); when empty, H2 in the data
 *                   dir does
 * @param metrics    whether {@code GET /metrics} answers, and the token it asks for
 * @param logs       how the server writes its log lines
 * @param traces     whether the server sends OpenTelemetry traces, and the OTEL_* settings of the exporter
 * @param mail       where the mails of paused runs' forms go out, and the base URL of their links
 * @param triggers   how often schedules are looked for, and what a webhook trigger takes
 * @param mcpServer  what a call of an app published as an MCP server takes
 * @param limits     the limits every app has until it has its own, and how often counts are exchanged
 * @param campus     what one campus key may ask of the feed (its request rate)
 */
public record Configuration(String host, int port, Path dataDir, Optional<String> adminToken,
        EngineConfiguration engine, ServiceSettings service, Optional<DatabaseServer> database,
        MetricsSettings metrics, LogSettings logs, TraceSettings traces, MailSettings mail, TriggerSettings triggers,
        McpServerSettings mcpServer, LimitSettings limits,
        CampusSettings campus) {

    public static final String DEFAULT_HOST = "127.0.0.1";
    public static final int DEFAULT_PORT = 8080;
    public static final Path DEFAULT_DATA_DIR = Path.of("data");

    public Configuration {
        if (host == null || host.isBlank()) {
            throw new UsageException("--host must not be empty");
        }
        if (port < 0 || port > 65535) {
            throw new UsageException("--port must be between 0 and 65535, was " + port);
        }
        if (dataDir == null) {
            throw new UsageException("--data-dir must not be empty");
        }
        adminToken = adminToken.filter(token -> !token.isBlank());
        engine = engine == null ? EngineConfiguration.fromEnvironment(Map.of()) : engine;
        service = service == null ? ServiceSettings.DEFAULTS : service;
        database = database == null ? Optional.empty() : database;
        metrics = metrics == null ? MetricsSettings.OFF : metrics;
        logs = logs == null ? LogSettings.DEFAULTS : logs;
        traces = traces == null ? TraceSettings.OFF : traces;
        mail = mail == null ? MailSettings.OFF : mail;
        triggers = triggers == null ? TriggerSettings.DEFAULTS : triggers;
        mcpServer = mcpServer == null ? McpServerSettings.DEFAULTS : mcpServer;
        limits = limits == null ? LimitSettings.DEFAULTS : limits;
        campus = campus == null ? CampusSettings.OFF : campus;
        if (adminToken.isPresent() && adminToken.get().length() < 16) {
            throw new UsageException("HEXAFLOW_ADMIN_TOKEN must be at least 16 characters long");
        }
    }

    /** With no default limits and no campus rate. */
    public Configuration(String host, int port, Path dataDir, Optional<String> adminToken,
            EngineConfiguration engine, ServiceSettings service, Optional<DatabaseServer> database,
            MetricsSettings metrics, LogSettings logs, TraceSettings traces, MailSettings mail,
            TriggerSettings triggers, McpServerSettings mcpServer) {
        this(host, port, dataDir, adminToken, engine, service, database, metrics, logs, traces, mail, triggers,
                mcpServer, LimitSettings.DEFAULTS,
                CampusSettings.OFF);
    }

    /** With the MCP servers' defaults. */
    public Configuration(String host, int port, Path dataDir, Optional<String> adminToken,
            EngineConfiguration engine, ServiceSettings service, Optional<DatabaseServer> database,
            MetricsSettings metrics, LogSettings logs, TraceSettings traces, MailSettings mail,
            TriggerSettings triggers) {
        this(host, port, dataDir, adminToken, engine, service, database, metrics, logs, traces, mail, triggers,
                McpServerSettings.DEFAULTS);
    }

    /** With the triggers' defaults. */
    public Configuration(String host, int port, Path dataDir, Optional<String> adminToken,
            EngineConfiguration engine, ServiceSettings service, Optional<DatabaseServer> database,
            MetricsSettings metrics, LogSettings logs, TraceSettings traces, MailSettings mail) {
        this(host, port, dataDir, adminToken, engine, service, database, metrics, logs, traces, mail,
                TriggerSettings.DEFAULTS);
    }

    /** Without mail. */
    public Configuration(String host, int port, Path dataDir, Optional<String> adminToken,
            EngineConfiguration engine, ServiceSettings service, Optional<DatabaseServer> database,
            MetricsSettings metrics, LogSettings logs, TraceSettings traces) {
        this(host, port, dataDir, adminToken, engine, service, database, metrics, logs, traces, MailSettings.OFF);
    }

    /** Without traces. */
    public Configuration(String host, int port, Path dataDir, Optional<String> adminToken,
            EngineConfiguration engine, ServiceSettings service, Optional<DatabaseServer> database,
            MetricsSettings metrics, LogSettings logs) {
        this(host, port, dataDir, adminToken, engine, service, database, metrics, logs, TraceSettings.OFF);
    }

    /** With metrics and traces off and the default log lines. */
    public Configuration(String host, int port, Path dataDir, Optional<String> adminToken,
            EngineConfiguration engine, ServiceSettings service, Optional<DatabaseServer> database) {
        this(host, port, dataDir, adminToken, engine, service, database, MetricsSettings.OFF, LogSettings.DEFAULTS);
    }

    /** With the engine's and the service's defaults, on H2 in the data dir. */
    public Configuration(String host, int port, Path dataDir, Optional<String> adminToken) {
        this(host, port, dataDir, adminToken, null, null, Optional.empty());
    }

    /** On H2 in the data dir. */
    public Configuration(String host, int port, Path dataDir, Optional<String> adminToken,
            EngineConfiguration engine, ServiceSettings service) {
        this(host, port, dataDir, adminToken, engine, service, Optional.empty());
    }

    /** The defaults, overridden by the HEXAFLOW_* variables of {@code environment}. */
    public static Configuration fromEnvironment(Map<String, String> environment) {
        return new Configuration(
                environment.getOrDefault("HEXAFLOW_HOST", DEFAULT_HOST),
                port(environment.getOrDefault("HEXAFLOW_PORT", String.valueOf(DEFAULT_PORT)), "HEXAFLOW_PORT"),
                Path.of(environment.getOrDefault("HEXAFLOW_DATA_DIR", DEFAULT_DATA_DIR.toString())),
                Optional.ofNullable(environment.get("HEXAFLOW_ADMIN_TOKEN")),
                EngineConfiguration.fromEnvironment(environment), ServiceSettings.fromEnvironment(environment),
                Optional.ofNullable(environment.get("HEXAFLOW_DATABASE_URL")).filter(url -> !url.isBlank())
                        .map(url -> new DatabaseServer(url, environment.get("HEXAFLOW_DATABASE_USER"),
                                environment.get("HEXAFLOW_DATABASE_PASSWORD"))),
                MetricsSettings.fromEnvironment(environment), LogSettings.fromEnvironment(environment),
                TraceSettings.fromEnvironment(environment), MailSettings.fromEnvironment(environment),
                TriggerSettings.fromEnvironment(environment), McpServerSettings.fromEnvironment(environment),
                LimitSettings.fromEnvironment(environment), CampusSettings.fromEnvironment(environment));
    }

    public Configuration withHost(String value) {
        return new Configuration(value, port, dataDir, adminToken, engine, service, database, metrics, logs,
                traces, mail, triggers, mcpServer, limits, campus);
    }

    public Configuration withPort(int value) {
        return new Configuration(host, value, dataDir, adminToken, engine, service, database, metrics, logs,
                traces, mail, triggers, mcpServer, limits, campus);
    }

    public Configuration withDataDir(Path value) {
        return new Configuration(host, port, value, adminToken, engine, service, database, metrics, logs, traces, mail,
                triggers, mcpServer, limits, campus);
    }

    public Configuration withAdminToken(String value) {
        return new Configuration(host, port, dataDir, Optional.ofNullable(value), engine, service, database, metrics,
                logs, traces, mail, triggers, mcpServer, limits, campus);
    }

    public Configuration withEngine(EngineConfiguration value) {
        return new Configuration(host, port, dataDir, adminToken, value, service, database, metrics, logs,
                traces, mail, triggers, mcpServer, limits, campus);
    }

    public Configuration withService(ServiceSettings value) {
        return new Configuration(host, port, dataDir, adminToken, engine, value, database, metrics, logs, traces, mail,
                triggers, mcpServer, limits, campus);
    }

    public Configuration withDatabase(DatabaseServer value) {
        return new Configuration(host, port, dataDir, adminToken, engine, service, Optional.of(value), metrics, logs,
                traces, mail, triggers, mcpServer, limits, campus);
    }

    public Configuration withMetrics(MetricsSettings value) {
        return new Configuration(host, port, dataDir, adminToken, engine, service, database, value, logs, traces, mail,
                triggers, mcpServer, limits, campus);
    }

    public Configuration withLogs(LogSettings value) {
        return new Configuration(host, port, dataDir, adminToken, engine, service, database, metrics, value,
                traces, mail, triggers, mcpServer, limits, campus);
    }

    public Configuration withTraces(TraceSettings value) {
        return new Configuration(host, port, dataDir, adminToken, engine, service, database, metrics, logs, value,
                mail, triggers, mcpServer, limits, campus);
    }

    public Configuration withMail(MailSettings value) {
        return new Configuration(host, port, dataDir, adminToken, engine, service, database, metrics, logs, traces,
                value, triggers, mcpServer, limits, campus);
    }

    public Configuration withTriggers(TriggerSettings value) {
        return new Configuration(host, port, dataDir, adminToken, engine, service, database, metrics, logs, traces,
                mail, value, mcpServer, limits, campus);
    }

    public Configuration withMcpServer(McpServerSettings value) {
        return new Configuration(host, port, dataDir, adminToken, engine, service, database, metrics, logs, traces,
                mail, triggers, value, limits, campus);
    }

    public Configuration withLimits(LimitSettings value) {
        return new Configuration(host, port, dataDir, adminToken, engine, service, database, metrics, logs, traces,
                mail, triggers, mcpServer, value, campus);
    }

    public Configuration withCampus(CampusSettings value) {
        return new Configuration(host, port, dataDir, adminToken, engine, service, database, metrics, logs, traces,
                mail, triggers, mcpServer, limits, value);
    }

    public static int port(String text, String name) {
        try {
            return Integer.parseInt(text.trim());
        } catch (NumberFormatException e) {
            throw new UsageException(name + " must be a port number, was '" + text + "'");
        }
    }
}
