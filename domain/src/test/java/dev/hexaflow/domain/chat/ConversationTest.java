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
}
