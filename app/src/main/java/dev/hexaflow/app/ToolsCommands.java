package dev.hexaflow.app;

import dev.hexaflow.adapters.persistence.jdbi.JdbiToolRegistryRepository;
import dev.hexaflow.application.tool.port.in.BindToolCommand;
import dev.hexaflow.application.tool.port.in.ListToolsUseCase.ToolCatalogue;
import dev.hexaflow.application.tool.port.in.RegisterMcpServerCommand;
import dev.hexaflow.application.tool.port.in.ToolRegistryException;
import dev.hexaflow.application.tool.port.in.UnbindToolCommand;
import dev.hexaflow.application.tool.service.ListToolsService;
import dev.hexaflow.application.tool.service.ManageMcpServersService;
import dev.hexaflow.application.tool.service.ManageToolBindingsService;
import dev.hexaflow.domain.tool.McpServer;
import dev.hexaflow.domain.tool.ToolBinding;
import java.io.PrintStream;
import java.util.List;

/**
 * {@code hexaflow tools ...}: the MCP servers and tool bindings, on the data dir of a stopped server (while it
 * runs, the admin API does the same). Header and environment values are never printed.
 */
final class ToolsCommands {

    private ToolsCommands() {
    }

    static int list(CommandLine.Command.ListTools command, PrintStream out) {
        try (Storage storage = Storage.open(command.config().dataDir())) {
            ToolCatalogue catalogue = new ListToolsService(new JdbiToolRegistryRepository(storage.jdbi()),
                    dev.hexaflow.engine.Engines.builtinTools())
                    .list();
            out.printf("%-24s  %-6s  %s%n", "SERVER", "KIND", "WHERE (SECRETS BY NAME ONLY)");
            for (McpServer server : catalogue.servers()) {
                out.printf("%-24s  %-6s  %s%n", server.name(), kind(server), where(server));
            }
            out.println();
            out.printf("%-40s  %s%n", "TOOL", "BOUND TO");
            for (ToolBinding binding : catalogue.bindings()) {
                ToolBinding.McpTool target = (ToolBinding.McpTool) binding.target();
                out.printf("%-40s  mcp %s %s%n", binding.label(), target.server(), target.tool());
            }
            return Main.OK;
        }
    }

    private static String kind(McpServer server) {
        return server.endpoint() instanceof McpServer.StreamableHttp ? "http" : "stdio";
    }

    private static String where(McpServer server) {
        if (server.endpoint() instanceof McpServer.StreamableHttp http) {
            return http.url() + (http.headers().isEmpty() ? "" : "  headers: "
                    + String.join(", ", http.headers().keySet().stream().sorted().toList()));
        }
        McpServer.Stdio stdio = (McpServer.Stdio) server.endpoint();
        return String.join(" ", stdio.command()) + (stdio.env().isEmpty() ? "" : "  env: "
                + String.join(", ", stdio.env().keySet().stream().sorted().toList()));
    }

    static int register(CommandLine.Command.RegisterMcpServer command, PrintStream out) {
        try (Storage storage = Storage.open(command.config().dataDir())) {
            boolean isNew = new ManageMcpServersService(new JdbiToolRegistryRepository(storage.jdbi()))
                    .register(new RegisterMcpServerCommand(command.server()));
            out.println("The MCP server " + command.server().name() + " is " + (isNew ? "registered" : "replaced")
                    + ": " + where(command.server()));
            return Main.OK;
        }
    }

    static int remove(CommandLine.Command.RemoveMcpServer command, PrintStream out, PrintStream err) {
        try (Storage storage = Storage.open(command.config().dataDir())) {
            new ManageMcpServersService(new JdbiToolRegistryRepository(storage.jdbi())).remove(command.name());
            out.println("The MCP server " + command.name() + " is removed.");
            return Main.OK;
        } catch (ToolRegistryException e) {
            err.println("hexaflow: " + e.getMessage());
            return Main.FAILED;
        }
    }

    static int bind(CommandLine.Command.BindTool command, PrintStream out, PrintStream err) {
        try (Storage storage = Storage.open(command.config().dataDir())) {
            new ManageToolBindingsService(new JdbiToolRegistryRepository(storage.jdbi()))
                    .bind(new BindToolCommand(command.binding()));
            ToolBinding.McpTool target = (ToolBinding.McpTool) command.binding().target();
            out.println("The tool " + command.binding().label() + " runs as the tool " + target.tool()
                    + " of the MCP server " + target.server() + ".");
            return Main.OK;
        } catch (ToolRegistryException e) {
            err.println("hexaflow: " + e.getMessage());
            return Main.FAILED;
        }
    }

    static int unbind(CommandLine.Command.UnbindTool command, PrintStream out, PrintStream err) {
        try (Storage storage = Storage.open(command.config().dataDir())) {
            UnbindToolCommand unbind = new UnbindToolCommand(command.provider(), command.tool());
            new ManageToolBindingsService(new JdbiToolRegistryRepository(storage.jdbi())).unbind(unbind);
            out.println("The tool " + unbind.provider() + "/" + unbind.tool() + " is unbound.");
            return Main.OK;
        } catch (ToolRegistryException e) {
            err.println("hexaflow: " + e.getMessage());
            return Main.FAILED;
        }
    }
}
