package dev.hexaflow.application.chat;

import static dev.hexaflow.application.chat.ChatBed.ADA;
import static dev.hexaflow.application.chat.ChatBed.CHAT_APP;
import static dev.hexaflow.application.chat.ChatBed.FLOW_APP;
import static dev.hexaflow.application.chat.ConversationUseCasesTest.assertRefused;
import static org.assertj.core.api.Assertions.assertThat;

import dev.hexaflow.application.chat.port.in.DeleteConversationUseCase.DeleteConversationCommand;
import dev.hexaflow.application.chat.port.in.GiveFeedbackUseCase.GiveFeedbackCommand;
import dev.hexaflow.application.chat.port.in.ListAppFeedbacksUseCase.ListAppFeedbacksQuery;
import dev.hexaflow.application.chat.port.in.ListConversationsUseCase.ListConversationsQuery;
import dev.hexaflow.application.chat.port.in.RenameConversationUseCase.RenameConversationCommand;
import dev.hexaflow.application.chat.service.DeleteConversationService;
import dev.hexaflow.application.chat.service.GiveFeedbackService;
import dev.hexaflow.application.chat.service.ListAppFeedbacksService;
import dev.hexaflow.application.chat.service.ListConversationsService;
import dev.hexaflow.application.chat.service.RenameConversationService;
import dev.hexaflow.application.common.ApiError;
import dev.hexaflow.domain.chat.Conversation;
import dev.hexaflow.domain.chat.MessageFeedback;
import dev.hexaflow.domain.workflow.ConversationVariable;
import org.junit.jupiter.api.Test;

/**
 * Renaming beyond the basics (the name's length, how the model's title is read, which model is asked) and what
 * deleting a conversation takes with it.
 */
class RenameAndDeleteConversationTest {

    private final ChatBed bed = new ChatBed();
    private final RenameConversationService rename = new RenameConversationService(bed.access, bed.conversations,
            bed.messages, bed.systemModel, bed.clock);
    private final DeleteConversationService delete = new DeleteConversationService(bed.access, bed.conversations);

    private Conversation autoRename(String conversationId) {
        return rename.rename(new RenameConversationCommand(CHAT_APP, ADA, conversationId, null, true));
    }

    /** A conversation of Ada's with one turn that asked {@code query}. */
    private Conversation answered(String id, String query) {
        Conversation chat = bed.conversation(id, ADA, query);
        bed.turn("m-" + id, chat, query, "ok");
        return chat;
    }

    @Test
    void aNameOfTheColumnsLengthIsKeptAndALongerOneRefused() {
        bed.conversation("c1", ADA, "hello");
        String longest = "n".repeat(Conversation.MAX_NAME_LENGTH);

        assertThat(rename.rename(new RenameConversationCommand(CHAT_APP, ADA, "c1", longest, false)).name())
                .isEqualTo(longest);
        assertRefused(() -> rename.rename(new RenameConversationCommand(CHAT_APP, ADA, "c1", longest + "n",
                false)), ApiError.INVALID_PARAM, "name must be at most 255 characters.");
        assertThat(bed.conversations.find(CHAT_APP, "e-ada", "c1").orElseThrow().name()).isEqualTo(longest);
    }

    @Test
    void aNameGivenWithAutoGenerateGivesWayToTheModelsTitle() {
        answered("c1", "plan my trip");
        bed.model.answers("{\"Your Output\": \"Trip plans\"}");

        Conversation renamed = rename.rename(new RenameConversationCommand(CHAT_APP, ADA, "c1", "Mine", true));

        assertThat(renamed.name()).isEqualTo("Trip plans");
    }

    @Test
    void aTitleObjectInsideTextAroundItIsStillRead() {
        answered("c1", "plan my trip");
        // Models wrap the object in prose; Dify's json_repair finds it there.
        bed.model.answers("Sure! {\"Language Type\": \"English\", \"Your Output\": \"Trip plans\"} Enjoy.");

        assertThat(autoRename("c1").name()).isEqualTo("Trip plans");
    }

    @Test
    void aBlankOutputFallsBackToTheQueryAndAnEmptyAnswerEmptiesTheName() {
        answered("c1", "plan my trip");
        bed.model.answers("{\"Your Output\": \"   \"}");
        bed.model.answers("");

        assertThat(autoRename("c1").name()).isEqualTo("plan my trip");
        // As Dify: an empty completion is an empty title, not a failure.
        assertThat(autoRename("c1").name()).isEmpty();
    }

    @Test
    void theTitleIsAskedOfTheFirstQueryNotTheLatest() {
        Conversation chat = answered("c1", "first question");
        bed.clock.advance(5);
        bed.turn("m2", chat, "second question", "ok");
        bed.model.answers("{\"Your Output\": \"First\"}");

        autoRename("c1");

        assertThat(bed.model.requests.get(0).messages().get(0).text()).endsWith("User Input:\nfirst question\n");
    }

    @Test
    void aVeryLongFirstQueryReachesTheModelCutInTheMiddleAndFallsBackCutToSeventyFive() {
        String query = "a".repeat(1000) + "b".repeat(1500);
        answered("c1", query);
        bed.model.answers("no object here");

        Conversation renamed = autoRename("c1");

        String prompt = bed.model.requests.get(0).messages().get(0).text();
        assertThat(prompt).endsWith("User Input:\n" + "a".repeat(300) + "...[TRUNCATED]..." + "b".repeat(300)
                + "\n");
        assertThat(renamed.name()).isEqualTo("a".repeat(75) + "...");
    }

    @Test
    void aChatflowWithoutAnLlmNodeIsTitledByTheServersModel() {
        answered("c1", "plan my trip");
        bed.llmNode = false;
        bed.model.answers("{\"Your Output\": \"Trip\"}");

        assertThat(autoRename("c1").name()).isEqualTo("Trip");
        assertThat(bed.model.requests.get(0).provider()).isEqualTo("openai");
        assertThat(bed.model.requests.get(0).model()).isEqualTo("gpt-fallback");
    }

    @Test
    void renamingInAWorkflowAppAnUnknownAppOrAnUnknownConversationIsRefused() {
        assertRefused(() -> rename.rename(new RenameConversationCommand(FLOW_APP, ADA, "c1", "x", false)),
                ApiError.NOT_CHAT_APP, "Please check if your app mode matches the right API route.");
        assertRefused(() -> rename.rename(new RenameConversationCommand("app-none", ADA, "c1", "x", false)),
                ApiError.NOT_FOUND, "App not found.");
        assertRefused(() -> rename.rename(new RenameConversationCommand(CHAT_APP, ADA, "c9", "x", false)),
                ApiError.NOT_FOUND, "Conversation Not Exists.");
        assertRefused(() -> autoRename("c9"), ApiError.NOT_FOUND, "Conversation Not Exists.");
        assertThat(bed.model.requests).isEmpty();
    }

    @Test
    void aStrangerWhoDeletesFindsNothingAndIsNotMadeAnEndUser() {
        bed.conversation("c1", ADA, "hello");

        assertRefused(() -> delete.delete(new DeleteConversationCommand(CHAT_APP, "nobody", "c1")),
                ApiError.NOT_FOUND, "Conversation Not Exists.");
        assertRefused(() -> delete.delete(new DeleteConversationCommand("app-none", ADA, "c1")),
                ApiError.NOT_FOUND, "App not found.");

        assertThat(bed.endUsers.find(CHAT_APP, "nobody")).isEmpty();
        assertThat(bed.conversations.find(CHAT_APP, "e-ada", "c1")).isPresent();
    }

    @Test
    void deletingAConversationTakesItsVariablesAndFeedbackAndLeavesTheOthers() {
        Conversation gone = answered("c1", "one");
        Conversation kept = answered("c2", "two");
        bed.variablesOf(gone, new ConversationVariable("v-a", "a", "string", "x", ""));
        bed.variablesOf(kept, new ConversationVariable("v-b", "b", "string", "y", ""));
        GiveFeedbackService feedback = new GiveFeedbackService(bed.access, bed.messages, bed.clock, bed.ids);
        feedback.give(new GiveFeedbackCommand(CHAT_APP, ADA, "m-c1", "like", null));
        feedback.give(new GiveFeedbackCommand(CHAT_APP, ADA, "m-c2", "dislike", null));

        delete.delete(new DeleteConversationCommand(CHAT_APP, ADA, "c1"));

        assertThat(bed.variables.all("c1")).isEmpty();
        assertThat(bed.variables.all("c2")).hasSize(1);
        assertThat(new ListAppFeedbacksService(bed.access, bed.messages).list(new ListAppFeedbacksQuery(CHAT_APP,
                1, 20))).extracting(MessageFeedback::messageId).containsExactly("m-c2");
        assertThat(new ListConversationsService(bed.access, bed.conversations).list(new ListConversationsQuery(
                CHAT_APP, ADA, null, 20, null)).data()).extracting(Conversation::id).containsExactly("c2");
    }
}
