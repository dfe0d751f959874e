package dev.hexaflow.app.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.hexaflow.adapters.nodes.fakes.FakeModelServer.Script;
import dev.hexaflow.adapters.nodes.fakes.FakeModelServer;
import dev.hexaflow.app.Hexaflow;
import dev.hexaflow.app.config.Configuration;
import dev.hexaflow.engine.EngineConfiguration;
import io.github.imfangs.dify.client.DifyChatflowClient;
import io.github.imfangs.dify.client.DifyClientFactory;
import io.github.imfangs.dify.client.callback.ChatflowStreamCallback;
import io.github.imfangs.dify.client.enums.ResponseMode;
import io.github.imfangs.dify.client.event.MessageEndEvent;
import io.github.imfangs.dify.client.event.MessageEvent;
import io.github.imfangs.dify.client.event.WorkflowFinishedEvent;
import io.github.imfangs.dify.client.event.WorkflowStartedEvent;
import io.github.imfangs.dify.client.exception.DifyApiException;
import io.github.imfangs.dify.client.model.chat.Annotation;
import io.github.imfangs.dify.client.model.chat.AnnotationListResponse;
import io.github.imfangs.dify.client.model.chat.AnnotationReply;
import io.github.imfangs.dify.client.model.chat.ChatMessage;
import io.github.imfangs.dify.client.model.chat.ChatMessageResponse;
import io.github.imfangs.dify.client.model.chat.Conversation;
import io.github.imfangs.dify.client.model.chat.MessageListResponse;
import io.github.imfangs.dify.client.model.chat.VariableResponse;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A real Dify chat client from Maven Central (dify-java-client's DifyChatflowClient) against a running Hexaflow. */
class DifyChatflowContractTest {

    private static final String ADMIN = "contract-admin-token-0123";
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    static Path dataDir;
    static FakeModelServer model;
    static Hexaflow server;
    static DifyChatflowClient chat;
    static String chatKey;

    @BeforeAll
    static void start() throws Exception {
        model = new FakeModelServer();
        model.answer(Script.text("Lisbon it is", 4, 3));
        server = Hexaflow.start(new Configuration("127.0.0.1", 0, dataDir, Optional.of(ADMIN))
                .withEngine(EngineConfiguration.fromEnvironment(Map.of("HEXAFLOW_LLM_MODELS", "*=local-model"))
                        .withLlm(model.baseUrl(), "sk-t")));
        chatKey = importApp("chatflow.yml");
        chat = DifyClientFactory.createChatWorkflowClient(server.baseUrl() + "/v1", chatKey);
    }

    @AfterAll
    static void stop() {
        chat.close();
        server.close();
        model.close();
    }

    @Test
    void aBlockingMessageReadsAsTheClientsChatMessageResponse() throws Exception {
        ChatMessageResponse response = chat.sendChatMessage(message("Where shall we go?", null, "client-ada",
                ResponseMode.BLOCKING));

        assertThat(response.getAnswer()).isEqualTo("Lisbon it is");
        assertThat(response.getMode()).isEqualTo("advanced-chat");
        assertThat(response.getMessageId()).isNotBlank();
        assertThat(response.getConversationId()).isNotBlank();
        assertThat(response.getMetadata().getUsage().getTotalTokens()).isEqualTo(7);
        assertThat(response.getCreatedAt()).isPositive();
    }

    @Test
    void aStreamedMessageReachesTheChatflowCallbacks() throws Exception {
        CountDownLatch done = new CountDownLatch(1);
        List<String> heard = new CopyOnWriteArrayList<>();
        StringBuilder answer = new StringBuilder();
        chat.sendChatMessageStream(message("Stream it", null, "client-bea", ResponseMode.STREAMING),
                new ChatflowStreamCallback() {
                    @Override
                    public void onWorkflowStarted(WorkflowStartedEvent event) {
                        heard.add("workflow_started");
                    }

                    @Override
                    public void onMessage(MessageEvent event) {
                        answer.append(event.getAnswer());
                        heard.add("message");
                    }

                    @Override
                    public void onWorkflowFinished(WorkflowFinishedEvent event) {
                        heard.add("workflow_finished " + event.getData().getStatus());
                    }

                    @Override
                    public void onMessageEnd(MessageEndEvent event) {
                        heard.add("message_end " + event.getMetadata().getUsage().getTotalTokens());
                        done.countDown();
                    }

                    @Override
                    public void onException(Throwable throwable) {
                        heard.add("exception " + throwable);
                        done.countDown();
                    }
                });

        assertThat(done.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(heard).startsWith("workflow_started").endsWith("workflow_finished succeeded", "message_end 7")
                .contains("message");
        assertThat(answer.toString()).isEqualTo("Lisbon it is");
    }

    @Test
    void conversationsMessagesVariablesAndFeedbackGoThroughTheClient() throws Exception {
        ChatMessageResponse first = chat.sendChatMessage(message("First", null, "client-cy", ResponseMode.BLOCKING));
        String conversationId = first.getConversationId();
        chat.sendChatMessage(message("Second", conversationId, "client-cy", ResponseMode.BLOCKING));

        MessageListResponse messages = chat.getMessages(conversationId, "client-cy", null, 20);
        assertThat(messages.getData()).extracting(MessageListResponse.Message::getQuery)
                .containsExactly("First", "Second");
        assertThat(chat.feedbackMessage(first.getMessageId(), "like", "client-cy", "good").getResult())
                .isEqualTo("success");
        assertThat(chat.getMessages(conversationId, "client-cy", null, 20).getData().get(0).getFeedback()
                .getRating()).isEqualTo("like");
        assertThat(chat.getAppFeedbacks().getData()).extracting(f -> f.get("message_id"))
                .contains(first.getMessageId());

        VariableResponse variables = chat.getConversationVariables(conversationId, "client-cy", null, 20, null);
        assertThat(variables.getData()).extracting(VariableResponse.VariableData::getValue)
                .containsExactly("Second");
        VariableResponse.VariableData changed = chat.updateConversationVariable(conversationId,
                variables.getData().get(0).getId(), "by the client", "client-cy");
        assertThat(changed.getValue()).isEqualTo("by the client");

        assertThat(chat.getConversations("client-cy", null, 20, "-updated_at").getData())
                .extracting(Conversation::getId).containsExactly(conversationId);
        Conversation renamed = chat.renameConversation(conversationId, "Client named", false, "client-cy");
        assertThat(renamed.getName()).isEqualTo("Client named");
        chat.deleteConversation(conversationId, "client-cy");
        assertThat(chat.getConversations("client-cy", null, 20, null).getData()).isEmpty();
        assertThat(chat.getAppMeta().getToolIcons()).isEmpty();
    }

    @Test
    void anUnknownConversationIsTheClientsApiException() {
        assertThatThrownBy(() -> chat.sendChatMessage(message("Hello?", "7d3b2a1c-0e9f-4a8b-9c7d-6e5f4a3b2c1d",
                "client-dan", ResponseMode.BLOCKING)))
                .isInstanceOf(DifyApiException.class)
                .hasMessageContaining("Conversation Not Exists.");
    }

    private static ChatMessage message(String query, String conversationId, String user, ResponseMode mode) {
        return ChatMessage.builder().query(query).inputs(Map.of()).user(user).responseMode(mode)
                .conversationId(conversationId).autoGenerateName(false).build();
    }

    private static String importApp(String name) throws Exception {
        try (InputStream in = DifyChatflowContractTest.class.getResourceAsStream("/apps/" + name)) {
            HttpResponse<String> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                    URI.create(server.baseUrl() + "/admin/apps")).header("Authorization", "Bearer " + ADMIN)
                    .header("Content-Type", "application/yaml")
                    .POST(HttpRequest.BodyPublishers.ofByteArray(in.readAllBytes())).build(),
                    HttpResponse.BodyHandlers.ofString());
            JsonNode body = JSON.readTree(response.body());
            return body.get("api_key").asText();
        }
    }

    @Test
    void annotationsAndTheirReplyReadAsTheClientsModels() throws Exception {
        Annotation saved = chat.saveAnnotation("What is the contract's secret word?", "Swordfish");
        AnnotationListResponse listed = chat.getAnnotations(1, 20);
        Annotation updated = chat.updateAnnotation(saved.getId(), "What is the contract's secret word?",
                "Swordfish, twice");
        // The client names the reply's fields in camelCase, which Dify's parser refuses as Hexaflow does: the
        // switch is sent as Dify's own clients send it, and the client reads the job's status.
        assertThatThrownBy(() -> chat.annotationReply("enable", "openai", "text-embedding-3-small", 1))
                .isInstanceOf(DifyApiException.class).hasMessageContaining("score_threshold is required");
        String jobId = JSON.readTree(replyAction("enable")).get("job_id").asText();
        AnnotationReply status = chat.getAnnotationReply("enable", jobId);
        ChatMessageResponse answered = chat.sendChatMessage(message("what is the contract's secret word", null,
                "client-dee", ResponseMode.BLOCKING));
        replyAction("disable");
        chat.deleteAnnotation(saved.getId());

        assertThat(saved.getId()).isNotBlank();
        assertThat(saved.getHitCount()).isZero();
        assertThat(saved.getCreatedAt()).isPositive();
        assertThat(listed.getData()).extracting(Annotation::getId).contains(saved.getId());
        assertThat(listed.getPage()).isEqualTo(1);
        assertThat(updated.getAnswer()).isEqualTo("Swordfish, twice");
        assertThat(status.getJobStatus()).isEqualTo("completed");
        assertThat(status.getJobId()).isEqualTo(jobId);
        assertThat(status.getErrorMsg()).isEmpty();
        assertThat(answered.getAnswer()).isEqualTo("Swordfish, twice");
        assertThat(chat.getAnnotations(1, 20).getData()).extracting(Annotation::getId).doesNotContain(saved.getId());
    }

    private static String replyAction(String action) throws Exception {
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(server.baseUrl()
                + "/v1/apps/annotation-reply/" + action)).header("Authorization", "Bearer " + chatKey)
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(
                        "{\"score_threshold\": 1, \"embedding_provider_name\": \"openai\", "
                        + "\"embedding_model_name\": \"text-embedding-3-small\"}")).build(),
                HttpResponse.BodyHandlers.ofString()).body();
    }

}
