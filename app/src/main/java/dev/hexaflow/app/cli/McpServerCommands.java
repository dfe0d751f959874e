package dev.hexaflow.app.cli;

import dev.hexaflow.app.Main;
import dev.hexaflow.app.adapters.SecureRandomSecretGenerator;
import dev.hexaflow.app.config.Configuration;
import dev.hexaflow.app.wiring.McpServerModule;
import dev.hexaflow.app.wiring.Storage;
import dev.hexaflow.application.common.ApiError;
import dev.hexaflow.application.common.ApiException;
import dev.hexaflow.application.mcpserver.port.in.ManageMcpServerUseCase;
import dev.hexaflow.application.mcpserver.port.in.ManageMcpServerUseCase.McpServerView;
import dev.hexaflow.domain.mcpserver.AppMcpServer;
import java.io.PrintStream;
import java.time.Clock;
import java.util.List;
import java.util.function.Function;

/**
 * {@code hexaflow mcp-server ...}: an app published as an MCP server, on the data dir of a stopped server (while it
 * runs, the admin API does the same). The URL is printed: its code is the credential the operator hands callers.
 */
public final class McpServerCommands {

    private static final String USAGE = "try: mcp-server show APP_ID | mcp-server enable|disable APP_ID | "
            + "mcp-server new-url APP_ID";

    private McpServerCommands() {
    }

    static Command parse(List<String> words, Configuration config) {
        String verb = words.size() > 1 ? words.get(1) : "";
        if (words.size() != 3) {
            throw new UsageException("'" + String.join(" ", words) + "' is not an mcp-server command; " + USAGE);
        }
        return switch (verb) {
            case "show" -> new Command.ShowMcpServer(config, words.get(2));
            case "enable", "disable" -> new Command.SwitchMcpServer(config, words.get(2), verb.equals("enable"));
            case "new-url" -> new Command.NewMcpServerUrl(config, words.get(2));
            default -> throw new UsageException("unknown mcp-server command '" + String.join(" ", words) + "'; "
                    + USAGE);
        };
    }

    /** An mcp-server command's exit status; null for any other command. */
    public static Integer execute(Command command, PrintStream out, PrintStream err) {
        if (command instanceof Command.ShowMcpServer show) {
            return run(show.config(), err, servers -> print(servers.show(show.appId()), out));
        }
        if (command instanceof Command.SwitchMcpServer change) {
            return run(change.config(), err, servers -> print(servers.setEnabled(change.appId(), change.enabled()),
                    out));
        }
        if (command instanceof Command.NewMcpServerUrl change) {
            return run(change.config(), err, servers -> {
                print(servers.newUrl(change.appId()), out);
                out.println("The old URL stops answering at once.");
                return Main.OK;
            });
        }
        return null;
    }

    private static int run(Configuration config, PrintStream err, Function<ManageMcpServerUseCase, Integer> task) {
        try (Storage storage = Storage.open(config)) {
            return task.apply(McpServerModule.management(storage.jdbi(), new SecureRandomSecretGenerator(),
                    Clock.systemUTC()));
        } catch (ApiException e) {
            err.println("hexaflow: " + e.getMessage() + (e.error() == ApiError.NOT_FOUND
                    ? " (see hexaflow apps list for the apps)" : ""));
            return Main.FAILED;
        }
    }

    private static int print(McpServerView view, PrintStream out) {
        AppMcpServer server = view.server();
        out.println("App:         " + view.appId());
        out.println("Tool:        " + view.toolName());
        if (server == null) {
            out.println("MCP server:  off (never turned on: hexaflow mcp-server enable " + view.appId() + ")");
            return Main.OK;
        }
        out.println("MCP server:  " + (server.enabled() ? "on" : "off"));
        out.println("URL path:    " + server.path());
        out.println("Description: " + server.description().replace('\n', ' '));
        return Main.OK;
    }
}
