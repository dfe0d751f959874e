package dev.hexaflow.application.chat;

import static dev.hexaflow.application.chat.ChatBed.ADA;
import static dev.hexaflow.application.chat.ChatBed.BOB;
import static dev.hexaflow.application.chat.ChatBed.CHAT_APP;
import static dev.hexaflow.application.chat.ConversationUseCasesTest.assertRefused;
import static org.assertj.core.api.Assertions.assertThat;

import dev.hexaflow.application.chat.port.in.ListConversationVariablesUseCase.ListConversationVariablesQuery;
import dev.hexaflow.application.chat.port.in.ListConversationVariablesUseCase.VariableList;
import dev.hexaflow.application.chat.port.in.UpdateConversationVariableUseCase.UpdateConversationVariableCommand;
import dev.hexaflow.application.chat.service.ListConversationVariablesService;
import dev.hexaflow.application.chat.service.UpdateConversationVariableService;
import dev.hexaflow.application.common.ApiError;
import dev.hexaflow.domain.chat.Conversation;
import dev.hexaflow.domain.chat.KeptVariable;
import dev.hexaflow.domain.workflow.ConversationVariable;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Listing a conversation's variables and setting one. */
class ConversationVariableUseCasesTest {

    private final ChatBed bed = new ChatBed();
    private final ListConversationVariablesService list = new ListConversationVariablesService(bed.access,
            bed.variables);
    private final UpdateConversationVariableService update = new UpdateConversationVariableService(bed.access,
            bed.variables, bed.clock);

    @BeforeEach
    void conversationWithVariables() {
        Conversation chat = bed.conversation("c1", ADA, "hello");
        bed.variablesOf(chat,
                new ConversationVariable("v-name", "user_name", "string", "", ""),
                new ConversationVariable("v-count", "visit_count", "number", 0L, ""),
                new ConversationVariable("v-tags", "tags", "array[string]", List.of(), ""));
    }

    @Test
    void variablesAreListedInTheOrderMadeAPageAtATime() {
        VariableList first = list.list(new ListConversationVariablesQuery(CHAT_APP, ADA, "c1", null, 2, null));
        VariableList rest = list.list(new ListConversationVariablesQuery(CHAT_APP, ADA, "c1", "v-count", 2, null));

        assertThat(first.data()).extracting(KeptVariable::id).containsExactly("v-name", "v-count");
        assertThat(first.hasMore()).isTrue();
        assertThat(rest.data()).extracting(KeptVariable::id).containsExactly("v-tags");
        assertThat(rest.hasMore()).isFalse();
    }

    @Test
    void variableNameFiltersByPartOfTheNameAndARefusedNameOrLastIdIsAnError() {
        VariableList named = list.list(new ListConversationVariablesQuery(CHAT_APP, ADA, "c1", null, 20, "NAME"));

        assertThat(named.data()).extracting(KeptVariable::id).containsExactly("v-name");
        assertRefused(() -> list.list(new ListConversationVariablesQuery(CHAT_APP, ADA, "c1", null, 20, "a;b")),
                ApiError.INVALID_PARAM, "Variable name can only contain letters, numbers, hyphens (-), underscores "
                        + "(_), and periods (.)");
        assertRefused(() -> list.list(new ListConversationVariablesQuery(CHAT_APP, ADA, "c1", "v-ghost", 20, null)),
                ApiError.NOT_FOUND, "Conversation Variable Not Exists.");
        assertRefused(() -> list.list(new ListConversationVariablesQuery(CHAT_APP, ADA, "c1", "v-tags", 20,
                "name")), ApiError.NOT_FOUND, "Conversation Variable Not Exists.");
        assertRefused(() -> list.list(new ListConversationVariablesQuery(CHAT_APP, BOB, "c1", null, 20, null)),
                ApiError.NOT_FOUND, "Conversation Not Exists.");
    }

    @Test
    void aValueOfTheVariablesTypeIsKeptWithTheTimeItChanged() {
        bed.clock.advance(60);

        KeptVariable updated = update.update(new UpdateConversationVariableCommand(CHAT_APP, ADA, "c1", "v-count",
                3L));

        assertThat(updated.variable().value()).isEqualTo(3L);
        assertThat(updated.updatedAt()).isEqualTo(updated.createdAt() + 60);
        assertThat(bed.variables.find("c1", "v-count")).contains(updated);
    }

    @Test
    void aValueOfAnotherTypeIsRefusedWithDifysMessageAndNothingChanges() {
        assertRefused(() -> update.update(new UpdateConversationVariableCommand(CHAT_APP, ADA, "c1", "v-tags",
                List.of("a", 1L))), ApiError.BAD_REQUEST,
                "Type mismatch: variable 'tags' expects array[string], but got array[any] type");
        assertRefused(() -> update.update(new UpdateConversationVariableCommand(CHAT_APP, ADA, "c1", "v-count",
                "three")), ApiError.BAD_REQUEST,
                "Type mismatch: variable 'visit_count' expects number, but got string type");

        assertThat(bed.variables.find("c1", "v-count").orElseThrow().variable().value()).isEqualTo(0L);
    }

    @Test
    void anUnknownVariableOrAnotherUsersConversationIsNotFound() {
        assertRefused(() -> update.update(new UpdateConversationVariableCommand(CHAT_APP, ADA, "c1", "v-ghost",
                "x")), ApiError.NOT_FOUND, "Conversation Variable Not Exists.");
        assertRefused(() -> update.update(new UpdateConversationVariableCommand(CHAT_APP, BOB, "c1", "v-name",
                "x")), ApiError.NOT_FOUND, "Conversation Not Exists.");
    }
}
