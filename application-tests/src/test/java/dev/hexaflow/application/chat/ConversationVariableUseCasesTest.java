package dev.hexaflow.application.chat;

import static dev.hexaflow.application.chat.ChatBed.ADA;
import static dev.hexaflow.application.chat.ChatBed.BOB;
import static dev.hexaflow.application.chat.ChatBed.CHAT_APP;
import static dev.hexaflow.application.chat.ChatBed.FLOW_APP;
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

    @Test
    void aNumberTakesADecimalAndABooleanAsDifysPythonDoes() {
        update.update(new UpdateConversationVariableCommand(CHAT_APP, ADA, "c1", "v-count", 2.5));
        assertThat(bed.variables.find("c1", "v-count").orElseThrow().variable().value()).isEqualTo(2.5);

        // Python's bool is an int, so Dify's check lets it through as a number.
        update.update(new UpdateConversationVariableCommand(CHAT_APP, ADA, "c1", "v-count", true));
        assertThat(bed.variables.find("c1", "v-count").orElseThrow().variable().value()).isEqualTo(true);
    }

    @Test
    void anArrayTakesAnEmptyListOrAListOfItsItemTypeButNoSingleItem() {
        update.update(new UpdateConversationVariableCommand(CHAT_APP, ADA, "c1", "v-tags", List.of("a", "b")));
        assertThat(bed.variables.find("c1", "v-tags").orElseThrow().variable().value()).isEqualTo(List.of("a", "b"));

        update.update(new UpdateConversationVariableCommand(CHAT_APP, ADA, "c1", "v-tags", List.of()));
        assertThat(bed.variables.find("c1", "v-tags").orElseThrow().variable().value()).isEqualTo(List.of());
        assertRefused(() -> update.update(new UpdateConversationVariableCommand(CHAT_APP, ADA, "c1", "v-tags",
                "a")), ApiError.BAD_REQUEST, "Type mismatch: variable 'tags' expects array[string], but got string "
                + "type");
    }

    @Test
    void aNullValueIsRefusedAsDifyNamesItsType() {
        assertRefused(() -> update.update(new UpdateConversationVariableCommand(CHAT_APP, ADA, "c1", "v-name",
                null)), ApiError.BAD_REQUEST, "Type mismatch: variable 'user_name' expects string, but got none "
                + "type");
        assertRefused(() -> update.update(new UpdateConversationVariableCommand(CHAT_APP, ADA, "c1", "v-tags",
                List.of(1L, 2.5))), ApiError.BAD_REQUEST,
                "Type mismatch: variable 'tags' expects array[string], but got array[number] type");
    }

    @Test
    void anUpdateChangesThatVariableOnlyAndTheListKeepsItsOrder() {
        bed.clock.advance(60);

        update.update(new UpdateConversationVariableCommand(CHAT_APP, ADA, "c1", "v-name", "Ada"));

        VariableList listed = list.list(new ListConversationVariablesQuery(CHAT_APP, ADA, "c1", null, 20, null));
        assertThat(listed.data()).extracting(KeptVariable::id).containsExactly("v-name", "v-count", "v-tags");
        assertThat(listed.data()).extracting(kept -> kept.variable().value()).containsExactly("Ada", 0L, List.of());
        assertThat(listed.data()).extracting(KeptVariable::updatedAt).containsExactly(
                listed.data().get(0).createdAt() + 60, listed.data().get(1).createdAt(),
                listed.data().get(2).createdAt());
    }

    @Test
    void aNameFilterTakesDotsAndHyphensButNotPunctuationAloneNorSqlLookingText() {
        VariableList none = list.list(new ListConversationVariablesQuery(CHAT_APP, ADA, "c1", null, 20,
                "user.name-x"));

        assertThat(none.data()).isEmpty();
        assertThat(none.hasMore()).isFalse();
        assertRefused(() -> list.list(new ListConversationVariablesQuery(CHAT_APP, ADA, "c1", null, 20, "_")),
                ApiError.INVALID_PARAM, "Variable name can only contain letters, numbers, hyphens (-), underscores "
                        + "(_), and periods (.)");
        // Dify refuses what it takes for SQL, even where it is a real name's part.
        assertRefused(() -> list.list(new ListConversationVariablesQuery(CHAT_APP, ADA, "c1", null, 20, "sp_x")),
                ApiError.INVALID_PARAM, "Variable name contains invalid characters: sp_");
    }

    @Test
    void variablesInAWorkflowAppOrWithALimitOutOfRangeAreRefused() {
        assertRefused(() -> list.list(new ListConversationVariablesQuery(FLOW_APP, ADA, "c1", null, 20, null)),
                ApiError.NOT_CHAT_APP, "Please check if your app mode matches the right API route.");
        assertRefused(() -> update.update(new UpdateConversationVariableCommand(FLOW_APP, ADA, "c1", "v-name",
                "x")), ApiError.NOT_CHAT_APP, "Please check if your app mode matches the right API route.");
        assertRefused(() -> list.list(new ListConversationVariablesQuery(CHAT_APP, ADA, "c1", null, 0, null)),
                ApiError.INVALID_PARAM, "limit must be between 1 and 100");
        assertRefused(() -> list.list(new ListConversationVariablesQuery(CHAT_APP, ADA, "c1", null, 101, null)),
                ApiError.INVALID_PARAM, "limit must be between 1 and 100");
    }
}
