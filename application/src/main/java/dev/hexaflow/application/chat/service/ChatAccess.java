package dev.hexaflow.application.chat.service;

import dev.hexaflow.application.apps.port.out.AppRepository;
import dev.hexaflow.application.apps.port.out.EndUserRepository;
import dev.hexaflow.application.apps.port.out.WorkflowVersionRepository;
import dev.hexaflow.application.chat.port.out.ConversationRepository;
import dev.hexaflow.application.common.ApiError;
import dev.hexaflow.application.common.ApiException;
import dev.hexaflow.domain.app.App;
import dev.hexaflow.domain.app.EndUser;
import dev.hexaflow.domain.app.WorkflowVersion;
import dev.hexaflow.domain.chat.Conversation;
import dev.hexaflow.domain.workflow.AppInfo;
import dev.hexaflow.domain.workflow.Workflow;
import dev.hexaflow.workflow.port.out.WorkflowDslReader;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * What every chat use case checks first, as Dify's chat endpoints do: the app is a chatflow, and a conversation
 * named is one of this end user's with this app. An end user the app has never met owns nothing: reads find
 * nothing rather than make one.
 */
public final class ChatAccess {

    static final String CONVERSATION_NOT_EXISTS = "Conversation Not Exists.";
    static final String MESSAGE_NOT_EXISTS = "Message Not Exists.";

    private final AppRepository apps;
    private final EndUserRepository endUsers;
    private final ConversationRepository conversations;
    private final WorkflowVersionRepository versions;
    private final WorkflowDslReader reader;

    public ChatAccess(AppRepository apps, EndUserRepository endUsers, ConversationRepository conversations,
            WorkflowVersionRepository versions, WorkflowDslReader reader) {
        this.apps = apps;
        this.endUsers = endUsers;
        this.conversations = conversations;
        this.versions = versions;
        this.reader = reader;
    }

    /** @throws ApiException NOT_FOUND for an unknown app */
    App app(String appId) {
        return apps.find(appId).orElseThrow(() -> new ApiException(ApiError.NOT_FOUND, "App not found."));
    }

    /**
     * @throws ApiException NOT_FOUND for an unknown app, NOT_CHAT_APP for one that is not a chatflow, chatbot or
     *                      agent (Dify's {@code AppMode} check of /chat-messages)
     */
    App chatApp(String appId) {
        App app = app(appId);
        if (!AppInfo.CONVERSATION_MODES.contains(app.mode())) {
            throw new ApiException(ApiError.NOT_CHAT_APP, "Please check if your app mode matches the right API "
                    + "route.");
        }
        return app;
    }

    /** @throws ApiException NOT_FOUND for an unknown app, APP_UNAVAILABLE for one that is not a text generator */
    App completionApp(String appId) {
        App app = app(appId);
        if (!AppInfo.COMPLETION_MODE.equals(app.mode())) {
            throw new ApiException(ApiError.APP_UNAVAILABLE, "App unavailable, please check your app "
                    + "configurations.");
        }
        return app;
    }

    /** The id of the end user behind a session id, when the app has met them. */
    Optional<String> endUserId(String appId, String user) {
        if (user == null || user.isEmpty()) {
            return Optional.empty();
        }
        return endUsers.find(appId, user).map(EndUser::id);
    }

    /** @throws ApiException NOT_FOUND "Conversation Not Exists." for any conversation not this user's */
    Conversation conversation(String appId, String user, String conversationId) {
        return endUserId(appId, user)
                .flatMap(endUser -> conversations.find(appId, endUser, conversationId))
                .orElseThrow(() -> new ApiException(ApiError.NOT_FOUND, CONVERSATION_NOT_EXISTS));
    }

    /** The app's newest published workflow. */
    Workflow workflow(String appId) {
        WorkflowVersion version = versions.latest(appId).orElseThrow(() -> new ApiException(
                ApiError.APP_UNAVAILABLE, "App unavailable, please check your app configurations."));
        return reader.read(version.dsl().getBytes(StandardCharsets.UTF_8));
    }

    static void checkLimit(int limit, int max) {
        if (limit < 1 || limit > max) {
            throw new ApiException(ApiError.INVALID_PARAM, "limit must be between 1 and " + max);
        }
    }
}
