package dev.hexaflow.app.cli;

import dev.hexaflow.adapters.http.wire.DifyWire;
import dev.hexaflow.app.Main;
import dev.hexaflow.app.StartupException;
import dev.hexaflow.domain.workflow.InvalidWorkflowException;
import dev.hexaflow.domain.workflow.RunEvent;
import dev.hexaflow.domain.workflow.RunStatus;
import dev.hexaflow.domain.workflow.WorkflowRun;
import dev.hexaflow.workflow.engine.ChatTurn;
import dev.hexaflow.workflow.engine.InputFiles;
import dev.hexaflow.workflow.engine.InvalidInputsException;
import dev.hexaflow.workflow.engine.NodeUnavailableException;
import dev.hexaflow.workflow.engine.RunHandle;
import dev.hexaflow.workflow.engine.RunListener;
import dev.hexaflow.workflow.engine.RunRequest;
import java.io.IOException;
import java.io.PrintStream;
import java.util.Map;
import java.util.UUID;

/**
 * {@code hexaflow run FILE.yml}: one run of a DSL file, with no server and no database. Standard output carries
 * only the result (or the stream's frames); every message goes to standard error. A chatflow runs one turn of a
 * new conversation, its query given by {@code --query}: without {@code --stream} its answer is printed as it
 * streams, on lines of its own, before the result JSON on the last line.
 */
public final class WorkflowRunCommand {

    private WorkflowRunCommand() {
    }

    public static int execute(Command.RunWorkflow command, Map<String, String> environment, PrintStream out,
            PrintStream err) {
        LocalWorkflow local;
        try {
            local = LocalWorkflow.open(command.file(), command.tools(), command.dataDir(), environment, err);
        } catch (IOException e) {
            err.println("hexaflow: cannot read " + command.file() + ": " + e.getMessage());
            return Main.USAGE;
        } catch (InvalidWorkflowException e) {
            err.println("hexaflow: " + command.file() + ": " + e.getMessage());
            return Main.USAGE;
        } catch (UsageException | StartupException e) {
            err.println("hexaflow: " + e.getMessage());
            return Main.USAGE;
        }
        try (local) {
            return run(command, local, out, err);
        }
    }

    private static int run(Command.RunWorkflow command, LocalWorkflow local, PrintStream out,
            PrintStream err) {
        boolean chat = local.workflow.isChat();
        if (command.query().isPresent() && !chat) {
            err.println("hexaflow: --query goes with a chatflow (mode advanced-chat); " + command.file()
                    + " is a workflow app: give its inputs with --inputs (see hexaflow --help)");
            return Main.USAGE;
        }
        Map<String, Object> inputs;
        try {
            inputs = LocalWorkflow.inputs(command.inputs());
        } catch (UsageException e) {
            err.println("hexaflow: " + e.getMessage());
            return Main.USAGE;
        }
        if (chat && command.query().isEmpty()) {
            // Dify's chat API takes an empty query too; a chatflow that only reads its inputs needs none.
            err.println("hexaflow: " + command.file() + " is a chatflow; it runs with an empty query "
                    + "(give one with --query TEXT, or chat with it: hexaflow chat FILE.yml)");
        }
        String runId = UUID.randomUUID().toString();
        String taskId = UUID.randomUUID().toString();
        AnswerPrinter answer = new AnswerPrinter(out);
        RunListener listener = listener(command.stream(), chat, answer, runId, taskId, out);
        RunHandle handle;
        try {
            Map<String, Object> files = InputFiles.resolve(local.prepared.inputForm(), inputs, command.user(),
                    InputFiles.Uploads.NONE);
            RunRequest request = RunRequest.of(local.workflow, command.user(), files).withIds(runId, taskId);
            if (chat) {
                request = request.withChat(ChatTurn.first(command.query().orElse(""),
                        UUID.randomUUID().toString()));
            }
            handle = local.engine.start(local.prepared, request, listener);
        } catch (InvalidInputsException e) {
            err.println("hexaflow: inputs: " + e.getMessage() + " (give the inputs with --inputs JSON)");
            return Main.USAGE;
        } catch (NodeUnavailableException e) {
            err.println("hexaflow: " + e.code() + ": " + e.getMessage());
            return Main.FAILED;
        }
        WorkflowRun run = handle.await();
        if (!command.stream()) {
            answer.endLine();
            out.println(DifyWire.json(DifyWire.completion(run, taskId)));
        }
        out.flush();
        if (run.error() != null && !command.stream()) {
            err.println("hexaflow: the run " + run.status().wireName() + ": " + run.error());
        }
        return run.status() == RunStatus.SUCCEEDED || run.status() == RunStatus.PARTIAL_SUCCEEDED
                ? Main.OK : Main.FAILED;
    }

    /** Dify's stream events on standard output with --stream; otherwise a chatflow's answer as it comes, or nothing. */
    private static RunListener listener(boolean stream, boolean chat, AnswerPrinter answer, String runId,
            String taskId, PrintStream out) {
        if (!stream) {
            return chat ? answer : RunListener.NONE;
        }
        return event -> {
            if (!(event instanceof RunEvent.ConversationVariables)) {
                out.print(DifyWire.frame(DifyWire.event(event, runId, taskId)));
                out.flush();
            }
        };
    }
}
