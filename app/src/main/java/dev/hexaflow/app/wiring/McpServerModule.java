package dev.hexaflow.app.wiring;

import dev.hexaflow.adapters.persistence.jdbi.JdbiAppMcpServerRepository;
import dev.hexaflow.adapters.persistence.jdbi.JdbiAppRepository;
import dev.hexaflow.app.adapters.SecureRandomSecretGenerator;
import dev.hexaflow.app.config.McpServerSettings;
import dev.hexaflow.application.common.port.out.SecretGenerator;
import dev.hexaflow.application.mcpserver.port.in.ManageMcpServerUseCase;
import dev.hexaflow.application.mcpserver.port.in.ServeMcpServerUseCase;
import dev.hexaflow.application.mcpserver.service.ManageMcpServerService;
import dev.hexaflow.application.mcpserver.service.ServeMcpServerService;
import java.time.Clock;
import org.jdbi.v3.core.Jdbi;

/**
 * The MCP server context: an app's MCP server settings for the operator, and the calls at its URL, which run the app
 * through the runs and chat contexts' use cases as any caller does. It needs them made, so it is made after them.
 */
public final class McpServerModule {

    public final ManageMcpServerUseCase manage;
    public final ServeMcpServerUseCase serve;

    McpServerModule(Jdbi jdbi, McpServerSettings settings, WorkflowModule workflows, ChatModule chat) {
        JdbiAppMcpServerRepository servers = new JdbiAppMcpServerRepository(jdbi);
        this.manage = new ManageMcpServerService(workflows.appRecords, servers, new SecureRandomSecretGenerator(),
                Clock.systemUTC());
        this.serve = new ServeMcpServerService(servers, workflows.appRecords, workflows.versionRecords,
                workflows.apps.describe, workflows.runs.run, chat.send, chat.complete, settings.callWait());
    }

    /** The operator's use case alone, on a store no server serves: what the command line needs of the context. */
    public static ManageMcpServerUseCase management(Jdbi jdbi, SecretGenerator secrets, Clock clock) {
        return new ManageMcpServerService(new JdbiAppRepository(jdbi), new JdbiAppMcpServerRepository(jdbi), secrets,
                clock);
    }
}
