package dev.hexaflow.app.cli;

import dev.hexaflow.app.Main;
import dev.hexaflow.app.StartupException;
import dev.hexaflow.domain.workflow.InvalidWorkflowException;
import dev.hexaflow.domain.workflow.RunEvent;
import dev.hexaflow.domain.workflow.RunStatus;
import dev.hexaflow.domain.workflow.WorkflowRun;
import dev.hexaflow.workflow.engine.ChatTurn.PastMessage;
import dev.hexaflow.workflow.engine.ChatTurn;
import dev.hexaflow.workflow.engine.InputFiles;
import dev.hexaflow.workflow.engine.InvalidInputsException;
import dev.hexaflow.workflow.engine.NodeUnavailableException;
import dev.hexaflow.workflow.engine.RunRequest;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;

/**
 * {@code hexaflow chat FILE.yml}: a chat with a chatflow in the terminal, with no server and no database. Each
 * line of standard input is a turn; its answer goes to standard output as it streams, on lines of its own. The
 * conversation lives in memory for the session: the earlier turns for LLM memory, the conversation variables as
 * the last turn left them, the dialogue count. A failed turn prints its error and leaves the conversation as it
 * was, so the next line is asked as if it had not happened.
 */
public final class ChatCommand {

    static final String NEW = "/new";
    static final String QUIT = "/quit";

    private ChatCommand() {
    }

    /**
     * Runs the chat until {@code /quit} or the end of input.
     *
     * @param terminal whether a person types at a terminal, who then gets a prompt before each line
     */
    public static int execute(Command.Chat command, Map<String, String> environment, InputStream in,
            boolean terminal, PrintStream out, PrintStream err) {
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
            if (!local.workflow.isChat()) {
                err.println("hexaflow: " + command.file() + " is a workflow app (mode "
                        + local.workflow.app().mode() + "), not a chatflow (mode advanced-chat): run it with "
                        + "hexaflow run FILE.yml --inputs JSON");
                return Main.USAGE;
            }
            Map<String, Object> files;
            try {
                files = InputFiles.resolve(local.prepared.inputForm(), LocalWorkflow.inputs(command.inputs()),
                        command.user(), InputFiles.Uploads.NONE);
            } catch (UsageException e) {
                err.println("hexaflow: " + e.getMessage());
                return Main.USAGE;
            } catch (InvalidInputsException e) {
                err.println("hexaflow: inputs: " + e.getMessage() + " (give the inputs with --inputs JSON)");
                return Main.USAGE;
            }
            return chat(local, command.user(), files, new BufferedReader(new InputStreamReader(in,
                    StandardCharsets.UTF_8)), terminal, out, err);
        }
    }

    private static int chat(LocalWorkflow local, String user, Map<String, Object> inputs, BufferedReader lines,
            boolean terminal, PrintStream out, PrintStream err) {
        String opening = local.workflow.features().string("opening_statement", "");
        if (terminal) {
            err.println("hexaflow: chatting with " + local.workflow.app().name() + "; " + NEW
                    + " starts a new conversation, " + QUIT + " ends");
        }
        Conversation conversation = Conversation.start(opening, out);
        while (true) {
            if (terminal) {
                out.print("> ");
                out.flush();
            }
            String line;
            try {
                line = lines.readLine();
            } catch (IOException e) {
                err.println("hexaflow: cannot read the next line: " + e.getMessage());
                return Main.FAILED;
            }
            if (line == null || line.strip().equals(QUIT)) {
                return Main.OK;
            }
            if (line.strip().equals(NEW)) {
                err.println("hexaflow: a new conversation");
                conversation = Conversation.start(opening, out);
                continue;
            }
            if (line.isBlank()) {
                continue;
            }
            turn(local, user, inputs, conversation, line, out, err);
        }
    }

    private static void turn(LocalWorkflow local, String user, Map<String, Object> inputs,
            Conversation conversation, String query, PrintStream out, PrintStream err) {
        ChatTurn turn = conversation.next(query);
        AnswerPrinter answer = new AnswerPrinter(out);
        AtomicReference<Map<String, Object>> variables = new AtomicReference<>(turn.conversationVariables());
        WorkflowRun run;
        try {
            run = local.engine.start(local.prepared, RunRequest.of(local.workflow, user, inputs).withChat(turn),
                    event -> {
                        answer.on(event);
                        if (event instanceof RunEvent.ConversationVariables held) {
                            variables.set(held.values());
                        }
                    }).await();
        } catch (NodeUnavailableException e) {
            err.println("hexaflow: " + e.code() + ": " + e.getMessage());
            return;
        }
        answer.endLine();
        if (run.status() != RunStatus.SUCCEEDED && run.status() != RunStatus.PARTIAL_SUCCEEDED) {
            err.println("hexaflow: the turn " + run.status().wireName() + ": " + run.error());
            return;
        }
        Object said = run.outputs().get("answer");
        conversation.keep(turn, said == null ? answer.printed() : String.valueOf(said), variables.get());
    }

    /** The conversation of the session so far, as the engine's next turn needs it. */
    private static final class Conversation {

        private final String id = UUID.randomUUID().toString();
        private final List<PastMessage> history = new ArrayList<>();
        private Map<String, Object> variables = Map.of();

        /** A new conversation, its opening statement printed where the app has one. */
        static Conversation start(String opening, PrintStream out) {
            if (!opening.isBlank()) {
                out.println(opening.strip());
            }
            return new Conversation();
        }

        ChatTurn next(String query) {
            return new ChatTurn(query, id, history.size() + 1, variables, history);
        }

        void keep(ChatTurn turn, String answer, Map<String, Object> variables) {
            history.add(new PastMessage(turn.query(), answer));
            this.variables = variables;
        }
    }
}
