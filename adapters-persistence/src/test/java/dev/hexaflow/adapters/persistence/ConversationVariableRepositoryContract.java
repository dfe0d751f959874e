package dev.hexaflow.adapters.persistence;

import static dev.hexaflow.adapters.persistence.ChatFixtures.ADA;
import static dev.hexaflow.adapters.persistence.ChatFixtures.conversation;
import static dev.hexaflow.adapters.persistence.ChatFixtures.variable;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hexaflow.adapters.persistence.ChatFixtures.ChatStore;
import dev.hexaflow.application.chat.port.out.ConversationVariableRepository;
import dev.hexaflow.application.chat.port.out.ConversationVariableRepository.VariablePage;
import dev.hexaflow.domain.chat.KeptVariable;
import dev.hexaflow.domain.chat.VariableNameFilter;
import dev.hexaflow.domain.workflow.ConversationVariable;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** What every {@link ConversationVariableRepository} promises, on two conversations of one end user. */
abstract class ConversationVariableRepositoryContract {

    protected abstract ChatStore store();

    private ConversationVariableRepository variables() {
        return store().variables();
    }

    @BeforeEach
    void conversations() {
        store().conversations().add(conversation("c1", ADA, 100, 100));
        store().conversations().add(conversation("c2", ADA, 100, 100));
    }

    @Test
    void variablesOfEveryTypeAreReadBackAsTheyWereMadeInTheirOrder() {
        Map<String, Object> object = new LinkedHashMap<>();
        object.put("a", 1L);
        object.put("b", List.of("x", 2.5));
        List<KeptVariable> made = List.of(
                typed("v3", "z_last", "object", object, 0),
                typed("v1", "a_first", "array[string]", List.of("apple", "banana"), 1),
                typed("v2", "count", "number", 3L, 2),
                typed("v4", "flag", "boolean", true, 3),
                typed("v5", "nothing", "string", null, 4));

        variables().addAll(made);

        assertThat(variables().all("c1")).isEqualTo(made);
        assertThat(variables().all("c2")).isEmpty();
        assertThat(variables().find("c1", "v2")).contains(made.get(2));
        assertThat(variables().find("c2", "v2")).isEmpty();
    }

    @Test
    void theSameVariableIdIsKeptOncePerConversation() {
        variables().addAll(List.of(variable("c1", "v1", "topic", "a", 0, 100)));
        variables().addAll(List.of(variable("c2", "v1", "topic", "b", 0, 100)));

        assertThatThrownBy(() -> variables().addAll(List.of(variable("c1", "v1", "topic", "c", 0, 101))))
                .isInstanceOf(RuntimeException.class);
        assertThat(variables().find("c1", "v1")).map(v -> v.variable().value()).contains("a");
        assertThat(variables().find("c2", "v1")).map(v -> v.variable().value()).contains("b");
    }

    @Test
    void anUpdateKeepsTheValueAndTimeOfOneConversationsVariable() {
        variables().addAll(List.of(variable("c1", "v1", "topic", "a", 0, 100)));
        variables().addAll(List.of(variable("c2", "v1", "topic", "a", 0, 100)));

        variables().update(variables().find("c1", "v1").orElseThrow().withValue("changed", 150));

        KeptVariable read = variables().find("c1", "v1").orElseThrow();
        assertThat(read.variable().value()).isEqualTo("changed");
        assertThat(read.updatedAt()).isEqualTo(150);
        assertThat(read.createdAt()).isEqualTo(100);
        assertThat(variables().find("c2", "v1")).map(v -> v.variable().value()).contains("a");
    }

    @Test
    void updatingManyKeepsAllOrNoneOfThem() {
        variables().addAll(List.of(variable("c1", "v1", "a", "1", 0, 100), variable("c1", "v2", "b", "2", 1, 100)));
        KeptVariable one = variables().find("c1", "v1").orElseThrow().withValue("one", 120);
        KeptVariable ghost = variable("c1", "ghost", "g", "x", 9, 100);

        assertThatThrownBy(() -> variables().updateAll(List.of(one, ghost))).isInstanceOf(RuntimeException.class);
        assertThat(variables().find("c1", "v1")).map(v -> v.variable().value()).contains("1");

        variables().updateAll(List.of(one, variables().find("c1", "v2").orElseThrow().withValue("two", 120)));
        assertThat(variables().all("c1")).extracting(v -> v.variable().value()).containsExactly("one", "two");
    }

    @Test
    void pagesFollowTheMadeOrderAfterTheLastVariable() {
        List<KeptVariable> made = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            made.add(variable("c1", "v" + i, "name" + i, "x", i, 100));
        }
        variables().addAll(made);

        VariablePage first = variables().page("c1", null, null, 2);
        VariablePage second = variables().page("c1", first.items().get(1), null, 2);
        VariablePage third = variables().page("c1", second.items().get(1), null, 2);

        assertThat(first.items()).extracting(KeptVariable::id).containsExactly("v0", "v1");
        assertThat(first.hasMore()).isTrue();
        assertThat(second.items()).extracting(KeptVariable::id).containsExactly("v2", "v3");
        assertThat(third.items()).extracting(KeptVariable::id).containsExactly("v4");
        assertThat(third.hasMore()).isFalse();
    }

    @Test
    void theNameFilterMatchesAPartOfTheNameInAnyCaseAndTakesItsUnderscoreLiterally() {
        variables().addAll(List.of(variable("c1", "v1", "User_Name", "x", 0, 100),
                variable("c1", "v2", "username", "x", 1, 100),
                variable("c1", "v3", "topic", "x", 2, 100)));

        assertThat(variables().page("c1", null, new VariableNameFilter("user"), 20).items())
                .extracting(KeptVariable::id).containsExactly("v1", "v2");
        assertThat(variables().page("c1", null, new VariableNameFilter("r_n"), 20).items())
                .extracting(KeptVariable::id).containsExactly("v1");
    }

    private static KeptVariable typed(String id, String name, String type, Object value, int position) {
        return new KeptVariable("c1", new ConversationVariable(id, name, type, value, "about " + name), position,
                100, 100);
    }
}
