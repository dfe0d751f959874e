package dev.hexaflow.app.cli;

import dev.hexaflow.app.config.Configuration;
import dev.hexaflow.domain.tool.McpServer;
import dev.hexaflow.domain.tool.ToolBinding;
import dev.hexaflow.domain.trigger.MissedTicks;
import dev.hexaflow.domain.trigger.WebhookAuth;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/** A command the program can carry out. */
public sealed interface Command {
    record Serve(Configuration config) implements Command {
    }

    record Help() implements Command {
    }

    record Version() implements Command {
    }

    record CreateCampusKey(Configuration config) implements Command {
    }

    record BanCampusKey(Configuration config, String key) implements Command {
    }

    record ImportCampusData(Configuration config, String dataSet, Path file) implements Command {
    }

    /**
     * One run of a DSL file; for a chatflow, one turn with {@code query}.
     *
     * @param dataDir a stopped server's data dir, whose knowledge bases the knowledge-retrieval nodes search
     */
    record RunWorkflow(Path file, String inputs, String user, boolean stream, Optional<Path> tools,
            Optional<String> query, Optional<Path> dataDir) implements Command {
    }

    /** A chat in the terminal with a chatflow, each line of standard input a turn. */
    record Chat(Path file, String inputs, String user, Optional<Path> tools, Optional<Path> dataDir)
            implements Command {
    }

    record ListTools(Configuration config) implements Command {
    }

    record RegisterMcpServer(Configuration config, McpServer server) implements Command {
    }

    record RemoveMcpServer(Configuration config, String name) implements Command {
    }

    record BindTool(Configuration config, ToolBinding binding) implements Command {
    }

    record UnbindTool(Configuration config, String provider, String tool) implements Command {
    }

    record CreateKnowledgeBase(Configuration config, String name, Optional<String> id) implements Command {
    }

    record AddKnowledgeFiles(Configuration config, String base, List<Path> files) implements Command {
    }

    record ListKnowledgeBases(Configuration config) implements Command {
    }

    record CreateDatasetKey(Configuration config) implements Command {
    }

    record BindDatasetId(Configuration config, String datasetId, String base) implements Command {
    }

    record UnbindDatasetId(Configuration config, String datasetId) implements Command {
    }

    record ImportApp(Configuration config, Path file) implements Command {
    }

    record ListApps(Configuration config) implements Command {
    }

    record CreateAppKey(Configuration config, String appId) implements Command {
    }

    record SwitchSite(Configuration config, String appId, boolean enabled) implements Command {
    }

    /** {@code triggers list APP_ID}. */
    record ListTriggers(Configuration config, String appId) implements Command {
    }

    /** {@code triggers enable|disable}, or {@code bind|unbind} for a plugin trigger. */
    record SwitchTrigger(Configuration config, String appId, String nodeId, boolean enabled) implements Command {
    }

    record SetMissedTicks(Configuration config, String appId, String nodeId, MissedTicks policy) implements Command {
    }

    /** The authentication's own string form never shows its secret. */
    record SetTriggerAuth(Configuration config, String appId, String nodeId, WebhookAuth auth) implements Command {
    }

    record NewTriggerUrl(Configuration config, String appId, String nodeId) implements Command {
    }

    /** {@code mcp-server show APP_ID}. */
    record ShowAppLimits(Configuration config, String appId) implements Command {
    }

    /** Sets an app's limits whole from JSON given on the command line or in a file. */
    record SetAppLimits(Configuration config, String appId, Optional<String> json, Optional<Path> file)
            implements Command {
    }

    record ResetAppLimits(Configuration config, String appId) implements Command {
    }

    record ShowMcpServer(Configuration config, String appId) implements Command {
    }

    /** {@code mcp-server enable|disable APP_ID}. */
    record SwitchMcpServer(Configuration config, String appId, boolean enabled) implements Command {
    }

    record NewMcpServerUrl(Configuration config, String appId) implements Command {
    }

    /** Export from the data dir of a stopped server, or from a running one when {@code server} is given. */
    record ExportApp(Configuration config, String appId, Optional<String> workflowId,
            Optional<CommandLine.AdminServer> server) implements Command {
    }

    /** @param maxRatio how many times its own size the backup may unpack to, when it is checked */
    record Backup(Path file, CommandLine.AdminServer server, long maxRatio) implements Command {
    }

    /** Into {@code config}'s data dir; refused when the store is a PostgreSQL server. */
    record Restore(Path file, Configuration config, long maxRatio) implements Command {
        Path dataDir() {
            return config.dataDir();
        }
    }

    record Compact(Configuration config) implements Command {
    }
}
