package dev.hexaflow.adapters.persistence;

import static dev.hexaflow.adapters.persistence.ChatFixtures.ADA;
import static dev.hexaflow.adapters.persistence.ChatFixtures.BOB;
import static dev.hexaflow.adapters.persistence.ChatFixtures.CARL;
import static dev.hexaflow.adapters.persistence.WorkflowFixtures.APP;
import static dev.hexaflow.adapters.persistence.WorkflowFixtures.OTHER_APP;
import static dev.hexaflow.adapters.persistence.WorkflowFixtures.app;

import dev.hexaflow.adapters.persistence.ChatFixtures.ChatStore;
import dev.hexaflow.adapters.persistence.jdbi.JdbiAppRepository;
import dev.hexaflow.adapters.persistence.jdbi.JdbiConversationRepository;
import dev.hexaflow.adapters.persistence.jdbi.JdbiConversationVariableRepository;
import dev.hexaflow.adapters.persistence.jdbi.JdbiEndUserRepository;
import dev.hexaflow.adapters.persistence.jdbi.JdbiMessageRepository;
import dev.hexaflow.domain.app.EndUser;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The chat Jdbi repositories against the contracts of their ports, once on each {@link Store}: H2 and PostgreSQL
 * 15, each test on a store of its own, empty and migrated, with the apps and end users their tables refer to. The
 * tests run on H2 alone (references refused, a run pruned under a message, a file opened again) are in
 * {@link H2ChatRepositoriesTest}.
 */
@ParameterizedClass(name = "on {0}")
@EnumSource(Store.class)
class JdbiChatRepositoriesTest {

    private final Database database;

    JdbiChatRepositoriesTest(Store store) {
        database = store.open();
    }

    @AfterEach
    void close() {
        database.close();
    }

    /** The apps and end users that the chat tables' references need. */
    @BeforeEach
    void appsAndEndUsers() {
        JdbiAppRepository apps = new JdbiAppRepository(database.jdbi());
        apps.add(app(APP, "code1", 10));
        apps.add(app(OTHER_APP, "code2", 20));
        try (JdbiEndUserRepository users = new JdbiEndUserRepository(database.jdbi())) {
            users.findOrAdd(new EndUser(ADA, APP, "ada", 10));
            users.findOrAdd(new EndUser(BOB, APP, "bob", 10));
            users.findOrAdd(new EndUser(CARL, OTHER_APP, "carl", 10));
        }
    }

    private ChatStore chatStore() {
        return new ChatStore(new JdbiConversationRepository(database.jdbi()),
                new JdbiMessageRepository(database.jdbi()), new JdbiConversationVariableRepository(database.jdbi()));
    }

    @Nested
    class Conversations extends ConversationRepositoryContract {
        private final ChatStore store = chatStore();

        @Override
        protected ChatStore store() {
            return store;
        }
    }

    @Nested
    class Messages extends MessageRepositoryContract {
        private final ChatStore store = chatStore();

        @Override
        protected ChatStore store() {
            return store;
        }
    }

    @Nested
    class ConversationVariables extends ConversationVariableRepositoryContract {
        private final ChatStore store = chatStore();

        @Override
        protected ChatStore store() {
            return store;
        }
    }
}
