package dev.hexaflow.domain.chat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

class ConversationTest {

    @Test
    void aNewConversationIsNamedByItsQueryUpToTwentyCharactersThenAnEllipsis() {
        assertThat(Conversation.firstName("What is the weather")).isEqualTo("What is the weather");
        assertThat(Conversation.firstName("12345678901234567890")).isEqualTo("12345678901234567890");
        assertThat(Conversation.firstName("123456789012345678901")).isEqualTo("12345678901234567890…");
    }

    @Test
    void aConversationBegunWithoutAQueryIsANewConversation() {
        assertThat(Conversation.firstName("")).isEqualTo("New conversation");
        assertThat(Conversation.firstName(null)).isEqualTo("New conversation");
    }

    @Test
    void theNameCountsCharactersNotUtf16Units() {
        String emoji = "😀".repeat(21);

        assertThat(Conversation.firstName(emoji)).isEqualTo("😀".repeat(20) + "…");
    }

    @Test
    void aStartedConversationIsOpenAndATurnMovesItsUpdateTimeOnlyForward() {
        Conversation started = Conversation.start("c1", "a1", "e1", "Hi", Map.of("x", 1L), "Welcome", 100);

        assertThat(started.isOpen()).isTrue();
        assertThat(started.touched(150).updatedAt()).isEqualTo(150);
        assertThat(started.touched(150).touched(120).updatedAt()).isEqualTo(150);
        assertThat(started.renamed("Trip", 160).updatedAt()).isEqualTo(160);
        assertThat(started.titled("Trip").updatedAt()).isEqualTo(100);
    }

    @Test
    void aConversationWithoutItsOwnersOrUpdatedBeforeItWasMadeIsRefused() {
        assertThatThrownBy(() -> Conversation.start("c1", "a1", " ", "Hi", Map.of(), "", 1))
                .hasMessageContaining("endUserId");
        assertThatThrownBy(() -> new Conversation("c1", "a1", "e1", "n", Map.of(), ConversationStatus.NORMAL, "", 10,
                9)).hasMessageContaining("updatedAt");
    }

    @Test
    void theIntroductionFillsTheOpeningStatementWithTheInputsItNames() {
        String statement = "Hello {{name}}, ask about {{topic}}. {{#query#}}";

        assertThat(Conversation.introduction(statement, Map.of("name", "Ada"))).isEqualTo("Hello Ada, ask about "
                + "{{topic}}. {{#query#}}");
        assertThat(Conversation.introduction(statement, Map.of("name", "{{topic}}", "topic", "$1")))
                .isEqualTo("Hello {topic}, ask about $1. {{#query#}}");
        assertThat(Conversation.introduction(null, Map.of())).isEmpty();
    }

    @Test
    void aNewConversationsVariablesHoldTheirDefaultsInTheDslsOrder() {
        var declared = java.util.List.of(new dev.hexaflow.domain.workflow.ConversationVariable("v1", "a", "string",
                "x", ""), new dev.hexaflow.domain.workflow.ConversationVariable("v2", "b", "number", 2L, ""));

        var kept = KeptVariable.defaultsOf("c1", declared, 100);

        assertThat(kept).extracting(KeptVariable::position).containsExactly(0, 1);
        assertThat(kept).extracting(v -> v.variable().value()).containsExactly("x", 2L);
        assertThat(kept).allMatch(v -> v.conversationId().equals("c1") && v.createdAt() == 100);
    }
}
