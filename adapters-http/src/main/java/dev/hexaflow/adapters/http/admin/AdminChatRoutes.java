package dev.hexaflow.adapters.http.admin;

import dev.hexaflow.adapters.http.server.RouteGroup;
import dev.hexaflow.adapters.http.support.JsonResponses;
import dev.hexaflow.adapters.http.support.QueryNumbers;
import dev.hexaflow.adapters.http.wire.ChatWire;
import dev.hexaflow.application.chat.port.in.BrowseConversationsUseCase;
import dev.hexaflow.application.chat.port.in.ListConversationsUseCase.ConversationList;
import dev.hexaflow.application.chat.port.in.ListMessagesUseCase.MessageList;
import dev.hexaflow.domain.chat.Conversation;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A chat app's conversations for the operator, every end user's, paged as Dify pages an end user's
 * ({@code last_id}, {@code first_id}); each conversation names its end user, each message the run that answered it.
 */
public final class AdminChatRoutes implements RouteGroup {

    private final AdminAuthorization admin;
    private final BrowseConversationsUseCase browse;

    public AdminChatRoutes(AdminAuthorization admin, BrowseConversationsUseCase browse) {
        this.admin = admin;
        this.browse = browse;
    }

    @Override
    public void addTo(RoutesConfig routes) {
        routes.get("/admin/apps/{app_id}/conversations", admin.require(this::conversations));
        routes.get("/admin/apps/{app_id}/conversations/{conversation_id}/messages", admin.require(this::messages));
    }

    private void conversations(Context ctx) {
        ConversationList list = browse.conversations(ctx.pathParam("app_id"), ctx.queryParam("user"),
                ctx.queryParam("last_id"), QueryNumbers.number(ctx, "limit", 20));
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("limit", list.limit());
        body.put("has_more", list.hasMore());
        body.put("data", list.data().stream().map(AdminChatRoutes::conversation).toList());
        json(ctx, body);
    }

    private static Map<String, Object> conversation(Conversation conversation) {
        Map<String, Object> body = ChatWire.conversation(conversation);
        body.put("end_user_id", conversation.endUserId());
        return body;
    }

    private void messages(Context ctx) {
        MessageList list = browse.messages(ctx.pathParam("app_id"), ctx.pathParam("conversation_id"),
                ctx.queryParam("first_id"), QueryNumbers.number(ctx, "limit", 20));
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("limit", list.limit());
        body.put("has_more", list.hasMore());
        body.put("data", list.data().stream().map(item -> {
            Map<String, Object> message = ChatWire.message(item.message(), item.feedback());
            message.put("workflow_run_id", item.message().workflowRunId());
            return message;
        }).toList());
        json(ctx, body);
    }

    private static void json(Context ctx, Object body) {
        ctx.status(200).contentType("application/json").result(JsonResponses.json(body));
    }
}
