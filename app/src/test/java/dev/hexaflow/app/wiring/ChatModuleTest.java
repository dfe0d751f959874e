package dev.hexaflow.app.wiring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hexaflow.adapters.clients.model.OpenAiCompatibleSpeechTranscriber;
import dev.hexaflow.adapters.nodes.model.OpenAiCompatibleSpeechSynthesizer;
import dev.hexaflow.adapters.persistence.H2Database;
import dev.hexaflow.adapters.persistence.jdbi.JdbiAppRepository;
import dev.hexaflow.adapters.persistence.jdbi.JdbiEndUserRepository;
import dev.hexaflow.adapters.persistence.jdbi.JdbiWorkflowVersionRepository;
import dev.hexaflow.adapters.persistence.jdbi.WriteGate;
import dev.hexaflow.app.adapters.HmacSigner;
import dev.hexaflow.app.adapters.SecureRandomSecretGenerator;
import dev.hexaflow.application.chat.port.in.DeleteConversationUseCase.DeleteConversationCommand;
import dev.hexaflow.application.chat.port.in.GiveFeedbackUseCase.GiveFeedbackCommand;
import dev.hexaflow.application.chat.port.in.ListConversationsUseCase.ListConversationsQuery;
import dev.hexaflow.application.chat.port.in.ListMessagesUseCase.ListMessagesQuery;
import dev.hexaflow.application.chat.port.in.RenameConversationUseCase.RenameConversationCommand;
import dev.hexaflow.application.chat.port.in.UpdateConversationVariableUseCase.UpdateConversationVariableCommand;
import dev.hexaflow.application.common.ApiError;
import dev.hexaflow.application.common.ApiException;
import dev.hexaflow.application.common.FileSignatures;
import dev.hexaflow.domain.app.App;
import dev.hexaflow.domain.app.EndUser;
import dev.hexaflow.domain.app.SiteSettings;
import dev.hexaflow.domain.chat.Conversation;
import dev.hexaflow.domain.chat.KeptVariable;
import dev.hexaflow.domain.chat.Message;
import dev.hexaflow.domain.chat.MessageStatus;
import dev.hexaflow.domain.workflow.AppInfo;
import dev.hexaflow.domain.workflow.ConversationVariable;
import dev.hexaflow.workflow.port.out.ModelProvider;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The chat module on a real H2: a conversation kept the way the send-message use case will keep it (through the
 * module's repositories) is listed, renamed, rated, changed and deleted through its use cases.
 */
class ChatModuleTest {

    private final H2Database database = H2Database.openInMemory("chat-module-" + UUID.randomUUID());
    private final JdbiEndUserRepository endUsers = new JdbiEndUserRepository(database.jdbi(), WriteGate.OPEN);
    // This test sends no message: a run or a stop asked for would be a mistake.
    private final ChatModule chat = new ChatModule(database.jdbi(), unconfigured(),
            new OpenAiCompatibleSpeechSynthesizer(null, null, "tts-1", "alloy"),
            new OpenAiCompatibleSpeechTranscriber(null, null, "whisper-1"), Clock.fixed(Instant.ofEpochSecond(5_000), ZoneOffset.UTC), endUsers,
            new JdbiAppRepository(database.jdbi()),
            new JdbiWorkflowVersionRepository(database.jdbi()), (command, observer) -> {
                throw new AssertionError("no run expected");
            }, (app, task, user) -> {
                throw new AssertionError("no stop expected");
            }, new FileSignatures(new HmacSigner(), new SecureRandomSecretGenerator(), Clock.systemUTC()));

    @AfterEach
    void close() {
        chat.close();
        endUsers.close();
        database.close();
    }

    @Test
    void aKeptConversationGoesThroughEveryUseCaseOnTheDatabase() {
        new JdbiAppRepository(database.jdbi()).add(new App("app1", "Chat", "", AppInfo.ADVANCED_CHAT_MODE, "emoji",
                "🤖", "#FFF", List.of(), new SiteSettings("Chat", "emoji", "🤖", "#FFF", null, "", "", "", "",
                        "en-US", true, false), "chatcode1", true, 1));
        try (JdbiEndUserRepository users = new JdbiEndUserRepository(database.jdbi())) {
            users.findOrAdd(new EndUser("e1", "app1", "ada", 1));
        }
        Conversation conversation = Conversation.start("c1", "app1", "e1", "Plan a trip to Lisbon in May", Map.of(),
                "", 4_000);
        chat.conversations.add(conversation);
        chat.variables.addAll(List.of(new KeptVariable("c1", new ConversationVariable("v1", "city", "string",
                "", ""), 0, 4_000, 4_000)));
        Message started = Message.started("m1", "c1", "app1", "e1", null, Map.of(), "Plan a trip", List.of(),
                null, "t1", 4_000);
        chat.messages.add(started);
        chat.messages.finish(started.finish(new Message.TurnOutcome("Sure.", MessageStatus.NORMAL, null, "r1", 3, 2,
                0.2, List.of(), List.of())));

        assertThat(chat.listConversations.list(new ListConversationsQuery("app1", "ada", null, 20, null)).data())
                .extracting(Conversation::name).containsExactly("Plan a trip to Lisbo…");
        assertThat(chat.renameConversation.rename(new RenameConversationCommand("app1", "ada", "c1", "Lisbon",
                false)).updatedAt()).isEqualTo(5_000);
        chat.giveFeedback.give(new GiveFeedbackCommand("app1", "ada", "m1", "like", null));
        assertThat(chat.listMessages.list(new ListMessagesQuery("app1", "ada", "c1", null, 20)).data().get(0)
                .feedback().id()).isNotBlank();
        assertThat(chat.updateVariable.update(new UpdateConversationVariableCommand("app1", "ada", "c1", "v1",
                "Lisbon")).variable().value()).isEqualTo("Lisbon");

        chat.deleteConversation.delete(new DeleteConversationCommand("app1", "ada", "c1"));

        assertThat(chat.messages.count("c1")).isZero();
        assertThat(chat.variables.all("c1")).isEmpty();
        assertThatThrownBy(() -> chat.listMessages.list(new ListMessagesQuery("app1", "ada", "c1", null, 20)))
                .isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.error()).isEqualTo(ApiError.NOT_FOUND));
    }

    private static ModelProvider unconfigured() {
        return new ModelProvider() {
            @Override
            public boolean isConfigured() {
                return false;
            }

            @Override
            public ChatResult chat(ChatRequest request, java.util.function.Consumer<String> onText,
                    dev.hexaflow.workflow.engine.StopSignal stop) {
                throw new ModelException("no model in this test", null);
            }
        };
    }
}
