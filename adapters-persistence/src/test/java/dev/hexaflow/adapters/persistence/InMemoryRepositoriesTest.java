package dev.hexaflow.adapters.persistence;

import dev.hexaflow.adapters.persistence.ChatFixtures.ChatStore;
import dev.hexaflow.adapters.persistence.memory.InMemoryAppKeyRepository;
import dev.hexaflow.adapters.persistence.memory.InMemoryAppRepository;
import dev.hexaflow.adapters.persistence.memory.InMemoryBlobStore;
import dev.hexaflow.adapters.persistence.memory.InMemoryCampusDataRepository;
import dev.hexaflow.adapters.persistence.memory.InMemoryCampusKeyRepository;
import dev.hexaflow.adapters.persistence.memory.InMemoryConversationRepository;
import dev.hexaflow.adapters.persistence.memory.InMemoryConversationVariableRepository;
import dev.hexaflow.adapters.persistence.memory.InMemoryDatasetKeyRepository;
import dev.hexaflow.adapters.persistence.memory.InMemoryEndUserRepository;
import dev.hexaflow.adapters.persistence.memory.InMemoryIdempotencyKeyRepository;
import dev.hexaflow.adapters.persistence.memory.InMemoryKnowledgeRepository;
import dev.hexaflow.adapters.persistence.memory.InMemoryMessageRepository;
import dev.hexaflow.adapters.persistence.memory.InMemoryRunRepository;
import dev.hexaflow.adapters.persistence.memory.InMemoryToolFileRepository;
import dev.hexaflow.adapters.persistence.memory.InMemoryToolRegistryRepository;
import dev.hexaflow.adapters.persistence.memory.InMemoryUploadRepository;
import dev.hexaflow.adapters.persistence.memory.InMemoryWorkflowVersionRepository;
import dev.hexaflow.application.apps.port.out.AppKeyRepository;
import dev.hexaflow.application.apps.port.out.AppRepository;
import dev.hexaflow.application.apps.port.out.EndUserRepository;
import dev.hexaflow.application.apps.port.out.WorkflowVersionRepository;
import dev.hexaflow.application.campus.port.out.CampusDataRepository;
import dev.hexaflow.application.campus.port.out.CampusKeyRepository;
import dev.hexaflow.application.common.port.out.BlobStore;
import dev.hexaflow.application.files.port.out.UploadRepository;
import dev.hexaflow.application.knowledge.port.out.DatasetKeyRepository;
import dev.hexaflow.application.knowledge.port.out.KnowledgeRepository;
import dev.hexaflow.application.runs.port.out.IdempotencyKeyRepository;
import dev.hexaflow.application.runs.port.out.RunRepository;
import dev.hexaflow.application.tools.port.out.ToolFileRepository;
import dev.hexaflow.application.tools.port.out.ToolRegistryRepository;
import org.junit.jupiter.api.Nested;

/** The in-memory adapters against the contracts of their ports. */
class InMemoryRepositoriesTest {

    @Nested
    class Keys extends CampusKeyRepositoryContract {
        private final CampusKeyRepository repository = new InMemoryCampusKeyRepository();

        @Override
        protected CampusKeyRepository repository() {
            return repository;
        }
    }

    @Nested
    class Data extends CampusDataRepositoryContract {
        private final CampusDataRepository repository = new InMemoryCampusDataRepository();

        @Override
        protected CampusDataRepository repository() {
            return repository;
        }
    }

    @Nested
    class CachedData extends CampusDataRepositoryContract {
        private final CampusDataRepository repository =
                new InMemoryCachingCampusDataRepository(new InMemoryCampusDataRepository());

        @Override
        protected CampusDataRepository repository() {
            return repository;
        }
    }

    @Nested
    class Apps extends AppRepositoryContract {
        private final AppRepository repository = new InMemoryAppRepository();

        @Override
        protected AppRepository repository() {
            return repository;
        }
    }

    @Nested
    class Versions extends WorkflowVersionRepositoryContract {
        private final WorkflowVersionRepository repository = new InMemoryWorkflowVersionRepository();

        @Override
        protected WorkflowVersionRepository repository() {
            return repository;
        }
    }

    @Nested
    class AppKeys extends AppKeyRepositoryContract {
        private final AppKeyRepository repository = new InMemoryAppKeyRepository();

        @Override
        protected AppKeyRepository repository() {
            return repository;
        }
    }

    @Nested
    class EndUsers extends EndUserRepositoryContract {
        private final EndUserRepository repository = new InMemoryEndUserRepository();

        @Override
        protected EndUserRepository repository() {
            return repository;
        }
    }

    @Nested
    class Uploads extends UploadRepositoryContract {
        private final UploadRepository repository = new InMemoryUploadRepository();

        @Override
        protected UploadRepository repository() {
            return repository;
        }
    }

    @Nested
    class IdempotencyKeys extends IdempotencyKeyRepositoryContract {
        private final IdempotencyKeyRepository repository = new InMemoryIdempotencyKeyRepository();

        @Override
        protected IdempotencyKeyRepository repository() {
            return repository;
        }
    }

    @Nested
    class Runs extends RunRepositoryContract {
        private final RunRepository repository = new InMemoryRunRepository();

        @Override
        protected RunRepository repository() {
            return repository;
        }
    }

    @Nested
    class Pauses extends PauseRepositoryContract {
        private final RunRepository repository = new InMemoryRunRepository();

        @Override
        protected RunRepository repository() {
            return repository;
        }
    }

    @Nested
    class Blobs extends BlobStoreContract {
        private final BlobStore store = new InMemoryBlobStore();

        @Override
        protected BlobStore store() {
            return store;
        }
    }

    @Nested
    class ToolFiles extends ToolFileRepositoryContract {
        private final ToolFileRepository repository = new InMemoryToolFileRepository();

        @Override
        protected ToolFileRepository repository() {
            return repository;
        }
    }

    @Nested
    class Tools extends ToolRegistryRepositoryContract {
        private final ToolRegistryRepository repository = new InMemoryToolRegistryRepository();

        @Override
        protected ToolRegistryRepository repository() {
            return repository;
        }
    }

    /** The three chat repositories of one process, wired as the app wires them. */
    private static ChatStore chatStore() {
        InMemoryMessageRepository messages = new InMemoryMessageRepository();
        InMemoryConversationVariableRepository variables = new InMemoryConversationVariableRepository();
        return new ChatStore(new InMemoryConversationRepository(messages, variables), messages, variables);
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

    @Nested
    class Knowledge extends KnowledgeRepositoryContract {
        private final KnowledgeRepository repository = new InMemoryKnowledgeRepository();

        @Override
        protected KnowledgeRepository repository() {
            return repository;
        }
    }

    @Nested
    class DatasetKeys extends DatasetKeyRepositoryContract {
        private final DatasetKeyRepository repository = new InMemoryDatasetKeyRepository();

        @Override
        protected DatasetKeyRepository repository() {
            return repository;
        }
    }
}
