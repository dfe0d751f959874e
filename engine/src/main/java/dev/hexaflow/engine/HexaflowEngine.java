package dev.hexaflow.engine;

import dev.hexaflow.adapters.dsl.YamlWorkflowDslReader;
import dev.hexaflow.workflow.engine.InputFiles;
import dev.hexaflow.workflow.engine.PreparedWorkflow;
import dev.hexaflow.workflow.engine.RunHandle;
import dev.hexaflow.workflow.engine.RunListener;
import dev.hexaflow.workflow.engine.RunRequest;
import dev.hexaflow.workflow.engine.WorkflowEngine;
import dev.hexaflow.workflow.nodes.StandardNodes;
import dev.hexaflow.workflow.port.out.WorkflowDslReader;
import dev.hexaflow.domain.workflow.FormAnswer;
import dev.hexaflow.domain.workflow.PausedRun;
import dev.hexaflow.domain.workflow.Workflow;
import dev.hexaflow.domain.workflow.WorkflowRun;
import java.io.IOException;
import java.io.Reader;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * The embedder's entry point: the workflow engine with every standard adapter, built from settings; it reads
 * Dify DSL files, runs them with inputs (blocking, or started with a listener of Dify's events and stoppable), and
 * ends its worker processes when closed. The ports stay open for anything else: {@link #engine()} is the engine
 * itself, and {@link #standard(EngineConfiguration, UnaryOperator)} plugs adapters of one's own.
 */
public final class HexaflowEngine implements AutoCloseable {

    /** The end user ({@code sys.user_id}) of runs that name none. */
    public static final String DEFAULT_USER = "embedded";

    private final WorkflowEngine engine;
    private final List<AutoCloseable> owned;
    private final WorkflowDslReader dsl = new YamlWorkflowDslReader();

    private HexaflowEngine(WorkflowEngine engine, List<AutoCloseable> owned) {
        this.engine = engine;
        this.owned = owned;
    }

    /** An engine with every standard adapter: Jinja, JavaScript, Python, HTTP, model and speech, documents. */
    public static HexaflowEngine standard(EngineConfiguration config) {
        return standard(config, UnaryOperator.identity());
    }

    /**
     * As {@link #standard(EngineConfiguration)}, with {@code plugs} changing the adapters before the engine is
     * built, such as {@code services -> services.withModels(myModelProvider)}.
     */
    public static HexaflowEngine standard(EngineConfiguration config, UnaryOperator<StandardNodes.Services> plugs) {
        List<AutoCloseable> owned = new ArrayList<>();
        WorkflowEngine engine = Engines.standard(config, null, config::outbound, owned::add, plugs);
        return new HexaflowEngine(engine, List.copyOf(owned));
    }

    /** Reads a Dify app DSL file (YAML). */
    public Workflow read(Path file) {
        try {
            return read(Files.readAllBytes(file));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
    }

    /** Reads a Dify app DSL (YAML) from bytes. */
    public Workflow read(byte[] yaml) {
        return dsl.read(yaml);
    }

    /** Reads a Dify app DSL (YAML) from a reader, which it does not close. */
    public Workflow read(Reader yaml) {
        StringWriter text = new StringWriter();
        try {
            yaml.transferTo(text);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the DSL", e);
        }
        return read(text.toString().getBytes(StandardCharsets.UTF_8));
    }

    /** Runs the workflow to its end and answers the run: its status, outputs, error and usage. */
    public WorkflowRun run(Workflow workflow, Map<String, Object> inputs) {
        return run(workflow, inputs, RunListener.NONE);
    }

    /** As {@link #run(Workflow, Map)}, telling {@code listener} each of Dify's events in order as it happens. */
    public WorkflowRun run(Workflow workflow, Map<String, Object> inputs, RunListener listener) {
        return start(workflow, inputs, listener).await();
    }

    /**
     * Starts the workflow and answers at once: the handle gives the run's ids, {@code stop()} and {@code await()}.
     *
     * @throws dev.hexaflow.domain.workflow.InvalidWorkflowException when the graph cannot run
     * @throws dev.hexaflow.workflow.engine.InvalidInputsException when the inputs do not fit the form
     * @throws dev.hexaflow.workflow.engine.NodeUnavailableException when a node needs an adapter that is
     *         not configured (a model node with no model endpoint)
     */
    public RunHandle start(Workflow workflow, Map<String, Object> inputs, RunListener listener) {
        PreparedWorkflow prepared = engine.prepare(workflow);
        Map<String, Object> resolved = InputFiles.resolve(prepared.inputForm(), inputs, DEFAULT_USER,
                InputFiles.Uploads.NONE);
        return engine.start(prepared, RunRequest.of(workflow, DEFAULT_USER, resolved), listener);
    }

    /**
     * Goes on with a run that paused at a human-input node (it answered status {@code paused} and told
     * {@link dev.hexaflow.domain.workflow.RunEvent.WorkflowPaused} with all it needs), with what a person answered
     * on one of its forms, or with the form's expiry. The paused run is plain data: keep it where you like.
     */
    public RunHandle resume(Workflow workflow, PausedRun paused, FormAnswer answer, RunListener listener) {
        return engine.resume(engine.prepare(workflow), paused, List.of(answer), listener);
    }

    /** The engine itself, for what this class does not offer (a run request with ids, user or files of its own). */
    public WorkflowEngine engine() {
        return engine;
    }

    /** Ends the code runners' worker processes; they also end with the JVM. */
    @Override
    public void close() {
        for (AutoCloseable part : owned) {
            try {
                part.close();
            } catch (Exception e) {
                // Closing is best effort: a worker that will not close still ends with the JVM.
            }
        }
    }
}
