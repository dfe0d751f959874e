package dev.hexaflow.application.tools.port.in;

import dev.hexaflow.domain.tool.McpServer;
import dev.hexaflow.domain.tool.ToolBinding;
import java.util.List;

/** Lists what tools a workflow can use here: the built-ins, the registered MCP servers and the bindings. */
public interface ListToolsUseCase {

    ToolCatalogue list();

    /**
     * The catalogue; the servers carry their secrets, which whoever shows them must leave out.
     *
     * @param builtIns the built-in tools, as {@code provider/tool}
     */
    record ToolCatalogue(List<String> builtIns, List<McpServer> servers, List<ToolBinding> bindings) {
        public ToolCatalogue {
            builtIns = List.copyOf(builtIns);
            servers = List.copyOf(servers);
            bindings = List.copyOf(bindings);
        }
    }
}
