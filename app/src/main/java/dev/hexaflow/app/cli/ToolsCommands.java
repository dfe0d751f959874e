package dev.hexaflow.app.cli;

import dev.hexaflow.adapters.clients.tool.openapi.JacksonOpenApiToolRunner;
import dev.hexaflow.adapters.nodes.net.OutboundExchange;
import dev.hexaflow.adapters.persistence.jdbi.JdbiAppRepository;
import dev.hexaflow.adapters.persistence.jdbi.JdbiToolRegistryRepository;
import dev.hexaflow.app.Main;
import dev.hexaflow.app.config.Configuration;
import dev.hexaflow.app.wiring.Storage;
import dev.hexaflow.application.tools.port.in.BindToolCommand;
import dev.hexaflow.application.tools.port.in.ListToolsUseCase.ToolCatalogue;
import dev.hexaflow.application.tools.port.in.RegisterMcpServerCommand;
import dev.hexaflow.application.tools.port.in.ToolRegistryException;
import dev.hexaflow.application.tools.port.in.UnbindToolCommand;
import dev.hexaflow.application.tools.service.ListToolsService;
import dev.hexaflow.application.tools.service.ManageMcpServersService;
import dev.hexaflow.application.tools.service.ManageToolBindingsService;
import dev.hexaflow.domain.tool.ApiCredential;
import dev.hexaflow.domain.tool.McpServer;
import dev.hexaflow.domain.tool.ToolBinding;
import java.io.PrintStream;
import java.util.List;

/**
 * {@code hexaflow tools ...}: the MCP servers and tool bindings, on the data dir of a stopped server (while it
 * runs, the admin API does the same). Header and environment values are never printed.
 */
public final class ToolsCommands {

    private ToolsCommands() {
    }

    public static int list(Command.ListTools command, PrintStream out) {
        try (Storage storage = Storage.open(command.config())) {
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
                out.printf("%-40s  %s%n", binding.label(), target(binding.target()));
            }
            return Main.OK;
        }
    }

    /** The bindings' use case on the data dir, checking apps there and documents through the outbound policy. */
    private static ManageToolBindingsService bindings(Storage storage, Configuration config) {
        JdbiToolRegistryRepository registry = new JdbiToolRegistryRepository(storage.jdbi());
        return new ManageToolBindingsService(registry, new JdbiAppRepository(storage.jdbi()),
                new JacksonOpenApiToolRunner(ref -> java.util.Optional.empty(),
                        new OutboundExchange(config.engine()::outbound), config.engine().toolTimeout()));
    }

    /** A binding's target as {@code tools list} prints it. */
    private static String target(ToolBinding.Target target) {
        if (target instanceof ToolBinding.McpTool mcp) {
            return "mcp " + mcp.server() + " " + mcp.tool();
        }
        if (target instanceof ToolBinding.OpenApiOperation openApi) {
            return "openapi " + (openApi.byUrl() ? openApi.document() : "(inline document)") + " "
                    + openApi.operation() + credential(openApi.credential());
        }
        return "app " + ((ToolBinding.App) target).appId();
    }

    /** Where an api tool's key goes, never the key. */
    private static String credential(ApiCredential credential) {
        if (credential instanceof ApiCredential.ApiKeyHeader header) {
            return "  key: header " + header.header() + " (" + header.prefix().label() + ")";
        }
        if (credential instanceof ApiCredential.ApiKeyQuery query) {
            return "  key: query " + query.param();
        }
        return "";
    }

    /** A binding's target in a sentence. */
    private static String described(ToolBinding.Target target) {
        if (target instanceof ToolBinding.McpTool mcp) {
            return "the tool " + mcp.tool() + " of the MCP server " + mcp.server();
        }
        if (target instanceof ToolBinding.OpenApiOperation openApi) {
            return "the operation " + openApi.operation() + " of " + (openApi.byUrl() ? openApi.document()
                    : "its OpenAPI document");
        }
        return "a run of the app " + ((ToolBinding.App) target).appId();
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

    public static int register(Command.RegisterMcpServer command, PrintStream out) {
        try (Storage storage = Storage.open(command.config())) {
            boolean isNew = new ManageMcpServersService(new JdbiToolRegistryRepository(storage.jdbi()))
                    .register(new RegisterMcpServerCommand(command.server()));
            out.println("The MCP server " + command.server().name() + " is " + (isNew ? "registered" : "replaced")
                    + ": " + where(command.server()));
            return Main.OK;
        }
    }

    public static int remove(Command.RemoveMcpServer command, PrintStream out, PrintStream err) {
        try (Storage storage = Storage.open(command.config())) {
            new ManageMcpServersService(new JdbiToolRegistryRepository(storage.jdbi())).remove(command.name());
            out.println("The MCP server " + command.name() + " is removed.");
            return Main.OK;
        } catch (ToolRegistryException e) {
            err.println("hexaflow: " + e.getMessage());
            return Main.FAILED;
        }
    }

    public static int bind(Command.BindTool command, PrintStream out, PrintStream err) {
        try (Storage storage = Storage.open(command.config())) {
            bindings(storage, command.config()).bind(new BindToolCommand(command.binding()));
            out.println("The tool " + command.binding().label() + " runs as " + described(command.binding().target())
                    + ".");
            return Main.OK;
        } catch (ToolRegistryException e) {
            err.println("hexaflow: " + e.getMessage());
            return Main.FAILED;
        }
    }

    public static int unbind(Command.UnbindTool command, PrintStream out, PrintStream err) {
        try (Storage storage = Storage.open(command.config())) {
            UnbindToolCommand unbind = new UnbindToolCommand(command.provider(), command.tool());
            bindings(storage, command.config()).unbind(unbind);
            out.println("The tool " + unbind.provider() + "/" + unbind.tool() + " is unbound.");
            return Main.OK;
        } catch (ToolRegistryException e) {
            err.println("hexaflow: " + e.getMessage());
            return Main.FAILED;
        }
    }
}
