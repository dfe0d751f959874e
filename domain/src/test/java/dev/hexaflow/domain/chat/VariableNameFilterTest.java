package dev.hexaflow.domain.chat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class VariableNameFilterTest {

    @Test
    void lettersDigitsHyphensUnderscoresAndPeriodsPass() {
        assertThat(new VariableNameFilter("user_name-2.x").text()).isEqualTo("user_name-2.x");
        assertThat(new VariableNameFilter("名前").text()).isEqualTo("名前");
    }

    @Test
    void anythingElseIsRefusedWithDifysMessage() {
        assertThatThrownBy(() -> new VariableNameFilter("a b")).hasMessage("Variable name can only contain "
                + "letters, numbers, hyphens (-), underscores (_), and periods (.)");
        assertThatThrownBy(() -> new VariableNameFilter("name'--")).hasMessageContaining("can only contain");
        assertThatThrownBy(() -> new VariableNameFilter("---")).hasMessageContaining("can only contain");
        assertThatThrownBy(() -> new VariableNameFilter("")).hasMessageContaining("1 to 255");
    }

    @Test
    void namesThatLookLikeSqlAreRefusedToo() {
        assertThatThrownBy(() -> new VariableNameFilter("a--b")).hasMessage("Variable name contains invalid "
                + "characters: --");
        assertThatThrownBy(() -> new VariableNameFilter("XP_cmd")).hasMessage("Variable name contains invalid "
                + "characters: xp_");
    }

    @Test
    void aNameMatchesWhenItHoldsTheFilterInAnyCase() {
        VariableNameFilter filter = new VariableNameFilter("User");

        assertThat(filter.matches("the_username")).isTrue();
        assertThat(filter.matches("topic")).isFalse();
    }
}
