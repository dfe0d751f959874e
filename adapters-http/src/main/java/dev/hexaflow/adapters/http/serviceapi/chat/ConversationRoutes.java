package dev.hexaflow.adapters.http.serviceapi.chat;

import static dev.hexaflow.adapters.http.serviceapi.ServiceApiAuthentication.appId;
import static dev.hexaflow.adapters.http.serviceapi.ServiceApiAuthentication.user;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import dev.hexaflow.adapters.http.server.RequestLimits;
import dev.hexaflow.adapters.http.server.RouteGroup;
import dev.hexaflow.adapters.http.serviceapi.ServiceApiAuthentication.Access;
import dev.hexaflow.adapters.http.serviceapi.ServiceApiBodies;
import dev.hexaflow.adapters.http.support.JsonRequestBodies;
import dev.hexaflow.adapters.http.support.QueryNumbers;
import dev.hexaflow.adapters.http.wire.ChatWire;
import dev.hexaflow.application.chat.port.in.DeleteConversationUseCase.DeleteConversationCommand;
import dev.hexaflow.application.chat.port.in.DeleteConversationUseCase;
import dev.hexaflow.application.chat.port.in.GiveFeedbackUseCase.GiveFeedbackCommand;
import dev.hexaflow.application.chat.port.in.GiveFeedbackUseCase;
import dev.hexaflow.application.chat.port.in.ListAppFeedbacksUseCase.ListAppFeedbacksQuery;
import dev.hexaflow.application.chat.port.in.ListAppFeedbacksUseCase;
import dev.hexaflow.application.chat.port.in.ListConversationVariablesUseCase.ListConversationVariablesQuery;
import dev.hexaflow.application.chat.port.in.ListConversationVariablesUseCase.VariableList;
import dev.hexaflow.application.chat.port.in.ListConversationVariablesUseCase;
import dev.hexaflow.application.chat.port.in.ListConversationsUseCase.ConversationList;
import dev.hexaflow.application.chat.port.in.ListConversationsUseCase.ListConversationsQuery;
import dev.hexaflow.application.chat.port.in.ListConversationsUseCase;
import dev.hexaflow.application.chat.port.in.ListMessagesUseCase.ListMessagesQuery;
import dev.hexaflow.application.chat.port.in.ListMessagesUseCase.MessageList;
import dev.hexaflow.application.chat.port.in.ListMessagesUseCase;
import dev.hexaflow.application.chat.port.in.RenameConversationUseCase.RenameConversationCommand;
import dev.hexaflow.application.chat.port.in.RenameConversationUseCase;
import dev.hexaflow.application.chat.port.in.SuggestQuestionsUseCase.SuggestQuestionsQuery;
import dev.hexaflow.application.chat.port.in.SuggestQuestionsUseCase;
import dev.hexaflow.application.chat.port.in.UpdateConversationVariableUseCase.UpdateConversationVariableCommand;
import dev.hexaflow.application.chat.port.in.UpdateConversationVariableUseCase;
import dev.hexaflow.application.common.ApiError;
import dev.hexaflow.application.common.ApiException;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import java.util.List;
import java.util.Map;

/**
 * Dify's chat Service API over what a chatflow's conversations keep: history, feedback, suggested questions,
 * conversations and their variables. Each handler reads the request, calls its use case and maps the answer with
 * {@link ChatWire}.
 */
public final class ConversationRoutes implements RouteGroup {

    private final JsonRequestBodies bodies;
    private final ListMessagesUseCase messages;
    private final GiveFeedbackUseCase feedback;
    private final ListAppFeedbacksUseCase appFeedbacks;
    private final SuggestQuestionsUseCase suggested;
    private final ListConversationsUseCase conversations;
    private final DeleteConversationUseCase delete;
    private final RenameConversationUseCase rename;
    private final ListConversationVariablesUseCase variables;
    private final UpdateConversationVariableUseCase updateVariable;

    public ConversationRoutes(ListMessagesUseCase messages, GiveFeedbackUseCase feedback,
            ListAppFeedbacksUseCase appFeedbacks, SuggestQuestionsUseCase suggested,
            ListConversationsUseCase conversations, DeleteConversationUseCase delete,
            RenameConversationUseCase rename, ListConversationVariablesUseCase variables,
            UpdateConversationVariableUseCase updateVariable, RequestLimits limits) {
        this.bodies = new JsonRequestBodies(limits);
        this.messages = messages;
        this.feedback = feedback;
        this.appFeedbacks = appFeedbacks;
        this.suggested = suggested;
        this.conversations = conversations;
        this.delete = delete;
        this.rename = rename;
        this.variables = variables;
        this.updateVariable = updateVariable;
    }

    @Override
    public void addTo(RoutesConfig routes) {
        routes.get("/v1/messages", this::messages, Access.CHAT);
        routes.post("/v1/messages/{message_id}/feedbacks", this::feedback, Access.CHAT);
        routes.get("/v1/messages/{message_id}/suggested", this::suggested, Access.CHAT);
        routes.get("/v1/app/feedbacks", this::appFeedbacks, Access.READ_RUNS);
        routes.get("/v1/conversations", this::conversations, Access.CHAT);
        routes.delete("/v1/conversations/{conversation_id}", this::delete, Access.CHAT);
        routes.post("/v1/conversations/{conversation_id}/name", this::rename, Access.CHAT);
        routes.get("/v1/conversations/{conversation_id}/variables", this::variables, Access.CHAT);
        routes.put("/v1/conversations/{conversation_id}/variables/{variable_id}", this::updateVariable,
                Access.CHAT);
        // Dify's server takes PUT alone, but its Python SDK's update_conversation_variable sends PATCH.
        routes.patch("/v1/conversations/{conversation_id}/variables/{variable_id}", this::updateVariable,
                Access.CHAT);
    }

    private void messages(Context ctx) {
        MessageList list = messages.list(new ListMessagesQuery(appId(ctx), user(ctx, ctx.queryParam("user")),
                ctx.queryParam("conversation_id"), blankAsNull(ctx.queryParam("first_id")),
                QueryNumbers.number(ctx, "limit", 20)));
        ServiceApiBodies.json(ctx, 200, new Page(list.limit(), list.hasMore(), list.data().stream()
                .map(item -> ChatWire.message(item.message(), item.feedback())).toList()));
    }

    private void feedback(Context ctx) {
        Map<String, Object> body = bodies.object(ctx);
        Object rating = body.get("rating");
        Object content = body.get("content");
        feedback.give(new GiveFeedbackCommand(appId(ctx), user(ctx, JsonRequestBodies.user(body)),
                ctx.pathParam("message_id"), rating == null ? null : String.valueOf(rating),
                content == null ? null : String.valueOf(content)));
        ServiceApiBodies.json(ctx, 200, new ChatRoutes.Result("success"));
    }

    private void suggested(Context ctx) {
        List<String> questions = suggested.suggest(new SuggestQuestionsQuery(appId(ctx),
                user(ctx, ctx.queryParam("user")), ctx.pathParam("message_id")));
        ServiceApiBodies.json(ctx, 200, new Suggested("success", questions));
    }

    private void appFeedbacks(Context ctx) {
        ServiceApiBodies.json(ctx, 200, new Data(appFeedbacks.list(new ListAppFeedbacksQuery(appId(ctx),
                QueryNumbers.number(ctx, "page", 1), QueryNumbers.number(ctx, "limit", 20))).stream()
                .map(ChatWire::feedback).toList()));
    }

    private void conversations(Context ctx) {
        ConversationList list = conversations.list(new ListConversationsQuery(appId(ctx),
                user(ctx, ctx.queryParam("user")), blankAsNull(ctx.queryParam("last_id")),
                QueryNumbers.number(ctx, "limit", 20), blankAsNull(ctx.queryParam("sort_by"))));
        ServiceApiBodies.json(ctx, 200, new Page(list.limit(), list.hasMore(),
                list.data().stream().map(ChatWire::conversation).toList()));
    }

    private void delete(Context ctx) {
        delete.delete(new DeleteConversationCommand(appId(ctx), user(ctx, userOf(ctx)),
                ctx.pathParam("conversation_id")));
        ServiceApiBodies.json(ctx, 204, new ChatRoutes.Result("success"));
    }

    private void rename(Context ctx) {
        Map<String, Object> body = bodies.object(ctx);
        Object name = body.get("name");
        ServiceApiBodies.json(ctx, 200, ChatWire.conversation(rename.rename(new RenameConversationCommand(
                appId(ctx), user(ctx, JsonRequestBodies.user(body)), ctx.pathParam("conversation_id"),
                name == null ? null : String.valueOf(name), Boolean.TRUE.equals(body.get("auto_generate"))))));
    }

    private void variables(Context ctx) {
        VariableList list = variables.list(new ListConversationVariablesQuery(appId(ctx),
                user(ctx, ctx.queryParam("user")), ctx.pathParam("conversation_id"),
                blankAsNull(ctx.queryParam("last_id")), QueryNumbers.number(ctx, "limit", 20),
                blankAsNull(ctx.queryParam("variable_name"))));
        ServiceApiBodies.json(ctx, 200, new Page(list.limit(), list.hasMore(),
                list.data().stream().map(ChatWire::variable).toList()));
    }

    private void updateVariable(Context ctx) {
        Map<String, Object> body = bodies.object(ctx);
        if (!body.containsKey("value")) {
            throw new ApiException(ApiError.INVALID_PARAM, "value is required");
        }
        ServiceApiBodies.json(ctx, 200, ChatWire.variable(updateVariable.update(
                new UpdateConversationVariableCommand(appId(ctx), user(ctx, JsonRequestBodies.user(body)),
                        ctx.pathParam("conversation_id"), ctx.pathParam("variable_id"), body.get("value")))));
    }

    /** A DELETE's user: Dify's clients send it in the JSON body; a body-less one may name it in the query. */
    private String userOf(Context ctx) {
        if (ctx.body().isBlank()) {
            return ctx.queryParam("user");
        }
        return JsonRequestBodies.user(bodies.object(ctx));
    }

    private static String blankAsNull(String text) {
        return text == null || text.isBlank() ? null : text;
    }

    /** Dify's infinite-scroll page. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record Page(int limit, boolean hasMore, List<Map<String, Object>> data) {
    }

    record Suggested(String result, List<String> data) {
    }

    record Data(List<Map<String, Object>> data) {
    }
}
