package dev.hexaflow.adapters.persistence;

import static dev.hexaflow.adapters.persistence.ChatFixtures.ADA;
import static dev.hexaflow.adapters.persistence.ChatFixtures.BOB;
import static dev.hexaflow.adapters.persistence.ChatFixtures.CARL;
import static dev.hexaflow.adapters.persistence.ChatFixtures.conversation;
import static dev.hexaflow.adapters.persistence.ChatFixtures.message;
import static dev.hexaflow.adapters.persistence.WorkflowFixtures.APP;
import static dev.hexaflow.adapters.persistence.WorkflowFixtures.OTHER_APP;
import static dev.hexaflow.adapters.persistence.WorkflowFixtures.app;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hexaflow.adapters.persistence.ChatFixtures.ChatStore;
import dev.hexaflow.adapters.persistence.jdbi.JdbiAppRepository;
import dev.hexaflow.adapters.persistence.jdbi.JdbiConversationRepository;
import dev.hexaflow.adapters.persistence.jdbi.JdbiConversationVariableRepository;
import dev.hexaflow.adapters.persistence.jdbi.JdbiEndUserRepository;
import dev.hexaflow.adapters.persistence.jdbi.JdbiMessageRepository;
import dev.hexaflow.adapters.persistence.jdbi.JdbiRunRepository;
import dev.hexaflow.application.runs.port.out.RunRepository.Pruning;
import dev.hexaflow.application.runs.port.out.RunRepository.StartedRun;
import dev.hexaflow.domain.app.EndUser;
import dev.hexaflow.domain.chat.Conversation;
import dev.hexaflow.domain.chat.Message;
import dev.hexaflow.domain.workflow.RunStatus;
import dev.hexaflow.domain.workflow.WorkflowRun;
import java.nio.file.Path;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the chat Jdbi repositories are held to on H2 alone, besides their ports' contracts (which
 * {@link JdbiChatRepositoriesTest} runs on every {@link Store}): rows that must refer to a kept app, end user and
 * conversation; a run pruned under a message; a file opened again.
 */
class H2ChatRepositoriesTest {

    private final H2Database database = H2Database.openInMemory("chat-" + UUID.randomUUID());

    @AfterEach
    void close() {
        database.close();
    }

    @BeforeEach
    void appsAndEndUsers() {
        referencedRows(database);
    }

    private static void referencedRows(H2Database database) {
        JdbiAppRepository apps = new JdbiAppRepository(database.jdbi());
        apps.add(app(APP, "code1", 10));
        apps.add(app(OTHER_APP, "code2", 20));
        try (JdbiEndUserRepository users = new JdbiEndUserRepository(database.jdbi())) {
            users.findOrAdd(new EndUser(ADA, APP, "ada", 10));
            users.findOrAdd(new EndUser(BOB, APP, "bob", 10));
            users.findOrAdd(new EndUser(CARL, OTHER_APP, "carl", 10));
        }
    }

    private static ChatStore storeOn(H2Database database) {
        return new ChatStore(new JdbiConversationRepository(database.jdbi()),
                new JdbiMessageRepository(database.jdbi()), new JdbiConversationVariableRepository(database.jdbi()));
    }

    @Test
    void rowsForAnUnknownAppEndUserOrConversationAreRefused() {
        ChatStore store = storeOn(database);

        assertThatThrownBy(() -> store.conversations().add(conversation("c1", "ghost", ADA, 1, 1)))
                .isInstanceOf(RuntimeException.class);
        assertThatThrownBy(() -> store.conversations().add(conversation("c1", "nobody", 1, 1)))
                .isInstanceOf(RuntimeException.class);
        assertThatThrownBy(() -> store.messages().add(message("m1", conversation("ghost", ADA, 1, 1), 1)))
                .isInstanceOf(RuntimeException.class);
        assertThat(store.conversations().find(APP, ADA, "c1")).isEmpty();
    }

    @Test
    void aMessageOutlivesItsPrunedRunAndStillNamesIt() {
        ChatStore store = storeOn(database);
        Conversation chat = conversation("c1", ADA, 100, 100);
        store.conversations().add(chat);
        Message message = message("m1", chat, 100);
        store.messages().add(message);
        try (JdbiRunRepository runs = new JdbiRunRepository(database.jdbi())) {
            WorkflowRun run = WorkflowRun.started(message.workflowRunId(), "v1", Map.of(), 100);
            runs.started(new StartedRun(run, APP, "t1", new EndUser(ADA, APP, "ada", 10), "v", "l1")).join();
            runs.finished(run.finish(RunStatus.SUCCEEDED, Map.of(), null, 0.1, 1, 1, 0, 101)).join();

            int pruned = runs.prune(new Pruning(Long.MAX_VALUE, null, 100));

            assertThat(pruned).isEqualTo(1);
            assertThat(runs.find(APP, message.workflowRunId())).isEmpty();
        }
        assertThat(store.messages().find(APP, ADA, "m1")).contains(message);
    }

    @Test
    void conversationsAndTheirMessagesAreReadByTheNextProcessFromTheFile(@TempDir Path dir) {
        Conversation chat = conversation("c1", ADA, 100, 100);
        Message message = message("m1", chat, 100);
        try (H2Database file = H2Database.openFile(dir)) {
            referencedRows(file);
            ChatStore store = storeOn(file);
            store.conversations().add(chat);
            store.messages().add(message);
        }

        try (H2Database reopened = H2Database.openFile(dir)) {
            ChatStore store = storeOn(reopened);
            assertThat(store.conversations().find(APP, ADA, "c1")).contains(chat);
            assertThat(store.messages().last("c1", 10)).containsExactly(message);
        }
    }
}
