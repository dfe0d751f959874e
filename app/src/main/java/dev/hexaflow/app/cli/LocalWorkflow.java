package dev.hexaflow.app.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.hexaflow.adapters.clients.tool.openapi.JacksonOpenApiToolRunner;
import dev.hexaflow.adapters.dsl.YamlWorkflowDslReader;
import dev.hexaflow.adapters.nodes.net.OutboundExchange;
import dev.hexaflow.adapters.persistence.memory.InMemoryToolRegistryRepository;
import dev.hexaflow.app.wiring.CampusModule;
import dev.hexaflow.application.tools.service.BoundToolRunners;
import dev.hexaflow.application.tools.service.BoundTools;
import dev.hexaflow.application.tools.service.CampusFeedToolRunner;
import dev.hexaflow.application.tools.service.McpToolAddresses;
import dev.hexaflow.domain.tool.ToolBinding;
import dev.hexaflow.domain.workflow.NodeType;
import dev.hexaflow.domain.workflow.Workflow;
import dev.hexaflow.engine.EngineConfiguration;
import dev.hexaflow.engine.Engines;
import dev.hexaflow.workflow.engine.PreparedWorkflow;
import dev.hexaflow.workflow.engine.WorkflowEngine;
import dev.hexaflow.workflow.nodes.StandardNodes;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * A DSL file read and prepared on an engine of its own, with the tools a bindings file gives it, for the commands
 * that run it with no server and no database ({@code hexaflow run}, {@code hexaflow chat}). Closing it closes
 * what the engine opened (MCP sessions, processes).
 */
final class LocalWorkflow implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();

    final Workflow workflow;
    final WorkflowEngine engine;
    final PreparedWorkflow prepared;
    private final List<AutoCloseable> owned;
    private final PrintStream err;

    private LocalWorkflow(Workflow workflow, WorkflowEngine engine, PreparedWorkflow prepared,
            List<AutoCloseable> owned, PrintStream err) {
        this.workflow = workflow;
        this.engine = engine;
        this.prepared = prepared;
        this.owned = owned;
        this.err = err;
    }

    /**
     * The bundled campus feed, made when the workflow first asks the built-in campus tool (its data is parsed only
     * for a workflow that reads it).
     */
    private static java.util.function.Supplier<dev.hexaflow.application.campus.port.in.ServeCampusFeedUseCase>
            bundledCampusFeed() {
        java.util.concurrent.atomic.AtomicReference<dev.hexaflow.application.campus.port.in.ServeCampusFeedUseCase>
                made = new java.util.concurrent.atomic.AtomicReference<>();
        return () -> made.updateAndGet(feed -> feed != null ? feed
                : CampusModule.bundledFeed(java.time.Clock.systemUTC()));
    }

    /**
     * Reads and prepares the file, its knowledge-retrieval nodes searching the bases of {@code dataDir} (none
     * without it), and prints the import's warnings on {@code err}.
     *
     * @throws IOException when the file cannot be read
     * @throws dev.hexaflow.domain.workflow.InvalidWorkflowException listing what is wrong with it
     * @throws UsageException when the data dir is not a directory
     * @throws dev.hexaflow.app.StartupException when the data dir's store cannot be opened
     */
    static LocalWorkflow open(Path file, Optional<Path> toolBindings, Optional<Path> dataDir,
            Map<String, String> environment, PrintStream err) throws IOException {
        List<AutoCloseable> owned = new ArrayList<>();
        try {
            Workflow workflow = new YamlWorkflowDslReader().read(Files.readAllBytes(file));
            InMemoryToolRegistryRepository tools = new InMemoryToolRegistryRepository();
            EngineConfiguration engineConfig = EngineConfiguration.fromEnvironment(environment);
            BoundTools bound = new BoundTools(tools);
            JacksonOpenApiToolRunner openApi = new JacksonOpenApiToolRunner(
                    ref -> bound.target(ref, ToolBinding.OpenApiOperation.class),
                    new OutboundExchange(engineConfig::outbound), engineConfig.toolTimeout());
            toolBindings.ifPresent(bindings -> ToolBindingsFile.load(bindings, tools, openApi));
            LocalKnowledge knowledge = LocalKnowledge.open(dataDir, environment);
            owned.add(knowledge);
            UnaryOperator<StandardNodes.Services> toolFiles = keptToolFiles(workflow, owned, err);
            WorkflowEngine engine = Engines.standard(engineConfig, null, engineConfig::outbound,
                    new McpToolAddresses(tools)::find, owned::add, services -> toolFiles.apply(
                            BoundToolRunners.first(services, openApi, new CampusFeedToolRunner(bundledCampusFeed())))
                            .withKnowledge(knowledge.retriever));
            PreparedWorkflow prepared = engine.prepare(workflow);
            knowledge.warn(workflow, prepared.warnings(), err);
            return new LocalWorkflow(workflow, engine, prepared, owned, err);
        } catch (IOException | RuntimeException e) {
            closeAll(owned, err);
            throw e;
        }
    }

    /** Where a workflow that calls tools keeps the files they make; nothing for one that calls none. */
    private static UnaryOperator<StandardNodes.Services> keptToolFiles(Workflow workflow, List<AutoCloseable> owned,
            PrintStream err) {
        boolean callsTools = workflow.graph().nodes().stream()
                .anyMatch(node -> node.type() == NodeType.TOOL || node.type() == NodeType.AGENT);
        if (!callsTools) {
            return UnaryOperator.identity();
        }
        LocalToolFiles files = LocalToolFiles.create(err);
        owned.add(files);
        return files::around;
    }

    /**
     * The {@code --inputs} flag's JSON object.
     *
     * @throws UsageException when it is not one
     */
    static Map<String, Object> inputs(String json) {
        try {
            Object parsed = JSON.readValue(json, Object.class);
            if (parsed instanceof Map<?, ?>) {
                @SuppressWarnings("unchecked")
                Map<String, Object> map = (Map<String, Object>) parsed;
                return map;
            }
        } catch (JsonProcessingException e) {
            // the same message as for JSON that is not an object
        }
        throw new UsageException("--inputs must be a JSON object, such as '{\"query\": \"hello\"}'");
    }

    @Override
    public void close() {
        closeAll(owned, err);
    }

    private static void closeAll(List<AutoCloseable> owned, PrintStream err) {
        for (AutoCloseable part : owned) {
            try {
                part.close();
            } catch (Exception e) {
                err.println("hexaflow: a part of the engine did not close: " + e);
            }
        }
    }
}
