package dev.hexaflow.app.wiring;

import dev.hexaflow.adapters.clients.tool.openapi.JacksonOpenApiToolRunner;
import dev.hexaflow.adapters.nodes.net.OutboundExchange;
import dev.hexaflow.adapters.persistence.jdbi.JdbiToolRegistryRepository;
import dev.hexaflow.app.config.Configuration;
import dev.hexaflow.application.apps.port.out.AppRepository;
import dev.hexaflow.application.campus.port.in.ServeCampusFeedUseCase;
import dev.hexaflow.application.knowledge.service.KnowledgeBasesRetriever;
import dev.hexaflow.application.runs.port.in.AnswerFormUseCase;
import dev.hexaflow.application.runs.port.in.GetRunUseCase;
import dev.hexaflow.application.runs.port.in.RunWorkflowUseCase;
import dev.hexaflow.application.runs.port.in.StopTaskUseCase;
import dev.hexaflow.application.tools.port.in.ListToolsUseCase;
import dev.hexaflow.application.tools.port.in.ManageMcpServersUseCase;
import dev.hexaflow.application.tools.port.in.ManageToolBindingsUseCase;
import dev.hexaflow.application.tools.service.BoundToolRunners;
import dev.hexaflow.application.tools.service.BoundTools;
import dev.hexaflow.application.tools.service.CampusFeedToolRunner;
import dev.hexaflow.application.tools.service.ListToolsService;
import dev.hexaflow.application.tools.service.ManageMcpServersService;
import dev.hexaflow.application.tools.service.ManageToolBindingsService;
import dev.hexaflow.application.tools.service.McpToolAddresses;
import dev.hexaflow.application.tools.service.ToolFileService;
import dev.hexaflow.application.tools.service.ToolFilesKept;
import dev.hexaflow.application.tools.service.WorkflowAppToolRunner;
import dev.hexaflow.domain.tool.ToolBinding;
import dev.hexaflow.engine.Engines;
import dev.hexaflow.workflow.nodes.StandardNodes;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.jdbi.v3.core.Jdbi;

/**
 * The tools context: the registry of MCP servers and bindings, and the tool runners the engine's tool and agent
 * nodes call, in the one order they are asked (OpenAPI operations, other apps, the campus feed, then the engine's
 * own), with the files they answer kept.
 */
public final class ToolsModule {

    public final ListToolsUseCase listTools;
    public final ManageMcpServersUseCase mcpServers;
    public final ManageToolBindingsUseCase toolBindings;
    /** Where each MCP tool runs, for the engine. */
    final McpToolAddresses mcpAddresses;
    private final JacksonOpenApiToolRunner openApi;
    private final WorkflowAppToolRunner appTools;
    private final CampusFeedToolRunner campusTools;
    // The app tools drive the run use case, which needs the engine, which needs these tools: set once it is made.
    private final AtomicReference<RunWorkflowUseCase> runner = new AtomicReference<>();
    private final AtomicReference<StopTaskUseCase> stopper = new AtomicReference<>();
    private final AtomicReference<GetRunUseCase> getRun = new AtomicReference<>();
    private final AtomicReference<AnswerFormUseCase> forms = new AtomicReference<>();
    /** The campus feed of this server, for the built-in campus tool; none until the server sets it. */
    private final AtomicReference<ServeCampusFeedUseCase> campusFeed = new AtomicReference<>();

    ToolsModule(Jdbi jdbi, Configuration config, InstanceOrigins outbound, AppRepository apps) {
        JdbiToolRegistryRepository registry = new JdbiToolRegistryRepository(jdbi);
        BoundTools bound = new BoundTools(registry);
        this.openApi = new JacksonOpenApiToolRunner(ref -> bound.target(ref, ToolBinding.OpenApiOperation.class),
                new OutboundExchange(outbound), config.engine().toolTimeout());
        this.appTools = new WorkflowAppToolRunner(ref -> bound.target(ref, ToolBinding.App.class), runner::get,
                stopper::get, getRun::get, forms::get);
        this.campusTools = new CampusFeedToolRunner(campusFeed::get);
        this.mcpAddresses = new McpToolAddresses(registry);
        List<String> builtins = new ArrayList<>(Engines.builtinTools());
        builtins.addAll(CampusFeedToolRunner.labels());
        this.listTools = new ListToolsService(registry, List.copyOf(builtins));
        this.mcpServers = new ManageMcpServersService(registry);
        this.toolBindings = new ManageToolBindingsService(registry, apps, openApi);
    }

    /** The engine's node services with these tools asked first, their files kept, and knowledge to retrieve from. */
    StandardNodes.Services plugInto(StandardNodes.Services services, ToolFileService files,
            KnowledgeBasesRetriever knowledge) {
        return ToolFilesKept.around(BoundToolRunners.first(services, openApi, appTools, campusTools), files)
                .withKnowledge(knowledge);
    }

    /** Lets apps run as tools, once the run use cases are made. */
    void runAppsWith(RunWorkflowUseCase run, StopTaskUseCase stop, GetRunUseCase get, AnswerFormUseCase answers) {
        runner.set(run);
        stopper.set(stop);
        getRun.set(get);
        forms.set(answers);
    }

    /** The campus feed the built-in tool {@code hexaflow/campus_holidays} reads, once the server has made it. */
    void serveCampusFeed(ServeCampusFeedUseCase feed) {
        campusFeed.set(feed);
    }
}
