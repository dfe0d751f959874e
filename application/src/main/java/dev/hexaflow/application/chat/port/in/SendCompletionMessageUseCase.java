package dev.hexaflow.application.chat.port.in;

import dev.hexaflow.application.chat.port.in.SendChatMessageUseCase.ChatUnderWay;
import dev.hexaflow.application.common.ApiException;
import dev.hexaflow.application.runs.port.in.RunWorkflowUseCase.RunObserver;
import java.util.List;
import java.util.Map;

/**
 * Sends an end user's request to a text generator (Dify's completion app) and stops one under way: as Dify does,
 * each message is kept in a conversation of its own, and an app of another mode is unavailable on these routes.
 */
public interface SendCompletionMessageUseCase {

    /**
     * Starts the message; {@code observer} hears the run's events after they are kept.
     *
     * @throws ApiException INVALID_PARAM without a user, APP_UNAVAILABLE for an app that is no text generator
     */
    ChatUnderWay complete(CompletionCommand command, RunObserver observer);

    /**
     * Stops the end user's message under way; an unknown task is no error.
     *
     * @throws ApiException INVALID_PARAM without a user, APP_UNAVAILABLE for an app that is no text generator
     */
    void stop(String appId, String taskId, String user);

    /** @param query the request's query, {@code ""} when it has none (Dify's default) */
    record CompletionCommand(String appId, String user, String query, Map<String, Object> inputs,
            List<Object> files, String keyId) {
        public CompletionCommand {
            query = query == null ? "" : query;
            inputs = inputs == null ? Map.of() : inputs;
            files = files == null ? List.of() : files;
        }
    
        /** A message that came with no app key. */
        public CompletionCommand(String appId, String user, String query, Map<String, Object> inputs,
                List<Object> files) {
            this(appId, user, query, inputs, files, null);
        }

        /** The same message, come with the app key of id {@code id} (for the budgets per key). */
        public CompletionCommand withKeyId(String id) {
            return new CompletionCommand(appId, user, query, inputs, files, id);
        }
    }
}
