package dev.hexaflow.adapters.persistence;

import static dev.hexaflow.adapters.persistence.WorkflowFixtures.APP;
import static dev.hexaflow.adapters.persistence.WorkflowFixtures.OTHER_APP;
import static dev.hexaflow.adapters.persistence.WorkflowFixtures.app;
import static dev.hexaflow.adapters.persistence.WorkflowFixtures.uploader;

import dev.hexaflow.adapters.persistence.ChatFixtures.ChatStore;
import dev.hexaflow.adapters.persistence.jdbi.JdbiAppKeyRepository;
import dev.hexaflow.adapters.persistence.jdbi.JdbiAppRepository;
import dev.hexaflow.adapters.persistence.jdbi.JdbiCampusDataRepository;
import dev.hexaflow.adapters.persistence.jdbi.JdbiCampusKeyRepository;
import dev.hexaflow.adapters.persistence.jdbi.JdbiConversationRepository;
import dev.hexaflow.adapters.persistence.jdbi.JdbiConversationVariableRepository;
import dev.hexaflow.adapters.persistence.jdbi.JdbiDatasetKeyRepository;
import dev.hexaflow.adapters.persistence.jdbi.JdbiEndUserRepository;
import dev.hexaflow.adapters.persistence.jdbi.JdbiIdempotencyKeyRepository;
import dev.hexaflow.adapters.persistence.jdbi.JdbiKnowledgeRepository;
import dev.hexaflow.adapters.persistence.jdbi.JdbiMessageRepository;
import dev.hexaflow.adapters.persistence.jdbi.JdbiRunRepository;
import dev.hexaflow.adapters.persistence.jdbi.JdbiToolFileRepository;
import dev.hexaflow.adapters.persistence.jdbi.JdbiToolRegistryRepository;
import dev.hexaflow.adapters.persistence.jdbi.JdbiUploadRepository;
import dev.hexaflow.adapters.persistence.jdbi.JdbiWorkflowVersionRepository;
import dev.hexaflow.application.apps.port.out.AppKeyRepository;
import dev.hexaflow.application.apps.port.out.AppRepository;
import dev.hexaflow.application.apps.port.out.EndUserRepository;
import dev.hexaflow.application.apps.port.out.WorkflowVersionRepository;
import dev.hexaflow.application.campus.port.out.CampusDataRepository;
import dev.hexaflow.application.campus.port.out.CampusKeyRepository;
import dev.hexaflow.application.files.port.out.UploadRepository;
import dev.hexaflow.application.knowledge.port.out.DatasetKeyRepository;
import dev.hexaflow.application.knowledge.port.out.KnowledgeRepository;
import dev.hexaflow.application.runs.port.out.IdempotencyKeyRepository;
import dev.hexaflow.application.runs.port.out.RunRepository;
import dev.hexaflow.application.tools.port.out.ToolFileRepository;
import dev.hexaflow.application.tools.port.out.ToolRegistryRepository;
import dev.hexaflow.domain.app.EndUser;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;

/**
 * Every repository contract, run on a real PostgreSQL 15 ({@link PostgresCluster}) as on H2 and in memory: each test
 * on an empty schema, migrated by {@code db/postgresql} and {@code db/common}.
 */
class PostgresRepositoriesTest {

    private final Database database = PostgresCluster.get().emptyDatabase();

    @AfterEach
    void close() {
        database.close();
    }

    /** The apps and the uploader that the workflow tables' references need. */
    private void workflowRows() {
        JdbiAppRepository apps = new JdbiAppRepository(database.jdbi());
        apps.add(app(APP, "code1", 10));
        apps.add(app(OTHER_APP, "code2", 20));
        try (JdbiEndUserRepository users = new JdbiEndUserRepository(database.jdbi())) {
            users.findOrAdd(uploader());
        }
    }

    /** The apps and end users that the chat tables' references need. */
    private void chatRows() {
        JdbiAppRepository apps = new JdbiAppRepository(database.jdbi());
        apps.add(app(APP, "code1", 10));
        apps.add(app(OTHER_APP, "code2", 20));
        try (JdbiEndUserRepository users = new JdbiEndUserRepository(database.jdbi())) {
            users.findOrAdd(new EndUser(ChatFixtures.ADA, APP, "ada", 10));
            users.findOrAdd(new EndUser(ChatFixtures.BOB, APP, "bob", 10));
            users.findOrAdd(new EndUser(ChatFixtures.CARL, OTHER_APP, "carl", 10));
        }
    }

    private ChatStore chatStore() {
        return new ChatStore(new JdbiConversationRepository(database.jdbi()),
                new JdbiMessageRepository(database.jdbi()), new JdbiConversationVariableRepository(database.jdbi()));
    }

    @Nested
    class CampusKeys extends CampusKeyRepositoryContract {
        private final JdbiCampusKeyRepository repository = new JdbiCampusKeyRepository(database.jdbi());

        @Override
        protected CampusKeyRepository repository() {
            return repository;
        }

        @AfterEach
        void stopCounting() {
            repository.close();
        }
    }

    @Nested
    class CampusData extends CampusDataRepositoryContract {
        private final CampusDataRepository repository = new JdbiCampusDataRepository(database.jdbi());

        @Override
        protected CampusDataRepository repository() {
            return repository;
        }
    }

    @Nested
    class ToolFiles extends ToolFileRepositoryContract {
        private final ToolFileRepository repository = new JdbiToolFileRepository(database.jdbi());

        @Override
        protected ToolFileRepository repository() {
            return repository;
        }
    }

    @Nested
    class Tools extends ToolRegistryRepositoryContract {
        private final ToolRegistryRepository repository = new JdbiToolRegistryRepository(database.jdbi());

        @Override
        protected ToolRegistryRepository repository() {
            return repository;
        }
    }

    @Nested
    class Knowledge extends KnowledgeRepositoryContract {
        private final KnowledgeRepository repository = new JdbiKnowledgeRepository(database.jdbi());

        @Override
        protected KnowledgeRepository repository() {
            return repository;
        }
    }

    @Nested
    class DatasetKeys extends DatasetKeyRepositoryContract {
        private final DatasetKeyRepository repository = new JdbiDatasetKeyRepository(database.jdbi());

        @Override
        protected DatasetKeyRepository repository() {
            return repository;
        }
    }

    @Nested
    class Apps extends AppRepositoryContract {
        private final AppRepository repository = new JdbiAppRepository(database.jdbi());

        @Override
        protected AppRepository repository() {
            return repository;
        }
    }

    @Nested
    class Versions extends WorkflowVersionRepositoryContract {
        private final WorkflowVersionRepository repository = new JdbiWorkflowVersionRepository(database.jdbi());

        @BeforeEach
        void apps() {
            workflowRows();
        }

        @Override
        protected WorkflowVersionRepository repository() {
            return repository;
        }
    }

    @Nested
    class AppKeys extends AppKeyRepositoryContract {
        private final AppKeyRepository repository = new JdbiAppKeyRepository(database.jdbi());

        @BeforeEach
        void apps() {
            workflowRows();
        }

        @Override
        protected AppKeyRepository repository() {
            return repository;
        }
    }

    @Nested
    class EndUsers extends EndUserRepositoryContract {
        private final JdbiEndUserRepository repository = new JdbiEndUserRepository(database.jdbi());

        @BeforeEach
        void apps() {
            workflowRows();
        }

        @AfterEach
        void stopWriting() {
            repository.close();
        }

        @Override
        protected EndUserRepository repository() {
            return repository;
        }
    }

    @Nested
    class Uploads extends UploadRepositoryContract {
        private final UploadRepository repository = new JdbiUploadRepository(database.jdbi());

        @BeforeEach
        void appsAndUploader() {
            workflowRows();
        }

        @Override
        protected UploadRepository repository() {
            return repository;
        }
    }

    @Nested
    class IdempotencyKeys extends IdempotencyKeyRepositoryContract {
        private final IdempotencyKeyRepository repository = new JdbiIdempotencyKeyRepository(database.jdbi());

        @Override
        protected IdempotencyKeyRepository repository() {
            return repository;
        }
    }

    @Nested
    class Runs extends RunRepositoryContract {
        private final JdbiRunRepository repository = new JdbiRunRepository(database.jdbi());

        @AfterEach
        void stopWriting() {
            repository.close();
        }

        @Override
        protected RunRepository repository() {
            return repository;
        }
    }

    /** The chat repositories, on the apps and end users their tables refer to. */
    @Nested
    class Chat {

        @BeforeEach
        void appsAndEndUsers() {
            chatRows();
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
}
