package dev.hexaflow.app;

import dev.hexaflow.engine.Engines;
import dev.hexaflow.engine.EngineConfiguration;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.hexaflow.adapters.dsl.YamlWorkflowDslReader;
import dev.hexaflow.adapters.http.workflow.DifyWire;
import dev.hexaflow.adapters.persistence.memory.InMemoryToolRegistryRepository;
import dev.hexaflow.application.tool.service.McpToolAddresses;
import dev.hexaflow.application.tool.service.BoundTools;
import dev.hexaflow.adapters.nodes.net.OutboundExchange;
import dev.hexaflow.adapters.nodes.tool.openapi.JacksonOpenApiToolRunner;
import dev.hexaflow.domain.tool.ToolBinding;
import dev.hexaflow.application.workflow.engine.InputFiles;
import dev.hexaflow.application.workflow.engine.InvalidInputsException;
import dev.hexaflow.application.workflow.engine.NodeUnavailableException;
import dev.hexaflow.application.workflow.engine.PreparedWorkflow;
import dev.hexaflow.application.workflow.engine.RunHandle;
import dev.hexaflow.application.workflow.engine.RunListener;
import dev.hexaflow.application.workflow.engine.RunRequest;
import dev.hexaflow.application.workflow.engine.WorkflowEngine;
import dev.hexaflow.domain.workflow.InvalidWorkflowException;
import dev.hexaflow.domain.workflow.RunStatus;
import dev.hexaflow.domain.workflow.Workflow;
import dev.hexaflow.domain.workflow.WorkflowRun;
import dev.hexaflow.domain.workflow.RunEvent;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * {@code hexaflow run FILE.yml}: one run of a DSL file, with no server and no database. Standard output carries
 * only the result (or the stream's frames); every message goes to standard error.
 */
final class WorkflowRunCommand {

    private static final ObjectMapper JSON = new ObjectMapper();

    private WorkflowRunCommand() {
    }

    static int execute(CommandLine.Command.RunWorkflow command, Map<String, String> environment, PrintStream out,
            PrintStream err) {
        List<AutoCloseable> owned = new ArrayList<>();
        try {
            return run(command, out, err, environment, owned);
        } finally {
            for (AutoCloseable part : owned) {
                try {
                    part.close();
                } catch (Exception e) {
                    err.println("hexaflow: a part of the engine did not close: " + e);
                }
            }
        }
    }

    private static int run(CommandLine.Command.RunWorkflow command, PrintStream out, PrintStream err,
            Map<String, String> environment, List<AutoCloseable> owned) {
        Workflow workflow;
        WorkflowEngine engine;
        PreparedWorkflow prepared;
        try {
            workflow = new YamlWorkflowDslReader().read(Files.readAllBytes(command.file()));
            InMemoryToolRegistryRepository tools = new InMemoryToolRegistryRepository();
            EngineConfiguration engineConfig = EngineConfiguration.fromEnvironment(environment);
            BoundTools bound = new BoundTools(tools);
            JacksonOpenApiToolRunner openApi = new JacksonOpenApiToolRunner(
                    ref -> bound.target(ref, ToolBinding.OpenApiOperation.class),
                    new OutboundExchange(engineConfig::outbound), engineConfig.toolTimeout());
            command.tools().ifPresent(file -> ToolBindingsFile.load(file, tools, openApi));
            engine = Engines.standard(engineConfig, null, engineConfig::outbound, new McpToolAddresses(tools)::find,
                    owned::add, services -> BoundToolRunners.first(services, openApi));
            prepared = engine.prepare(workflow);
        } catch (IOException e) {
            err.println("hexaflow: cannot read " + command.file() + ": " + e.getMessage());
            return Main.USAGE;
        } catch (InvalidWorkflowException e) {
            err.println("hexaflow: " + command.file() + ": " + e.getMessage());
            return Main.USAGE;
        }
        Map<String, Object> inputs;
        try {
            Object parsed = JSON.readValue(command.inputs(), Object.class);
            if (!(parsed instanceof Map<?, ?>)) {
                throw new IllegalArgumentException("not an object");
            }
            @SuppressWarnings("unchecked")
            Map<String, Object> map = (Map<String, Object>) parsed;
            inputs = map;
        } catch (JsonProcessingException | IllegalArgumentException e) {
            err.println("hexaflow: --inputs must be a JSON object, such as '{\"query\": \"hello\"}'");
            return Main.USAGE;
        }
        String runId = UUID.randomUUID().toString();
        String taskId = UUID.randomUUID().toString();
        RunListener listener = command.stream()
                ? event -> {
                    if (!(event instanceof RunEvent.ConversationVariables)) {
                        out.print(DifyWire.frame(DifyWire.event(event, runId, taskId)));
                        out.flush();
                    }
                }
                : RunListener.NONE;
        RunHandle handle;
        try {
            Map<String, Object> files = InputFiles.resolve(prepared.inputForm(), inputs, command.user(), InputFiles.Uploads.NONE);
            handle = engine.start(prepared, RunRequest.of(workflow, command.user(), files).withIds(runId, taskId),
                    listener);
        } catch (InvalidInputsException e) {
            err.println("hexaflow: inputs: " + e.getMessage());
            return Main.USAGE;
        } catch (NodeUnavailableException e) {
            err.println("hexaflow: " + e.code() + ": " + e.getMessage());
            return Main.FAILED;
        }
        WorkflowRun run = handle.await();
        if (!command.stream()) {
            out.println(DifyWire.json(DifyWire.completion(run, taskId)));
        }
        out.flush();
        if (run.error() != null && !command.stream()) {
            err.println("hexaflow: the run " + run.status().wireName() + ": " + run.error());
        }
        return run.status() == RunStatus.SUCCEEDED || run.status() == RunStatus.PARTIAL_SUCCEEDED
                ? Main.OK : Main.FAILED;
    }
}
