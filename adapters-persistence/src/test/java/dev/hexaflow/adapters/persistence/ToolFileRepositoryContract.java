package dev.hexaflow.adapters.persistence;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hexaflow.application.tools.port.out.ToolFileRepository;
import dev.hexaflow.domain.tool.ToolFile;
import org.junit.jupiter.api.Test;

/** What every ToolFileRepository promises. */
abstract class ToolFileRepositoryContract {

    protected abstract ToolFileRepository repository();

    private static ToolFile file(String id, String blobKey) {
        return new ToolFile(id, blobKey, "speech.mp3", ".mp3", "audio/mpeg", 1234, 1_790_000_000L);
    }

    @Test
    void aSavedFileIsFoundWholeByItsIdAndNoOther() {
        repository().save(file("f-1", "blob-1"));

        assertThat(repository().find("f-1")).contains(file("f-1", "blob-1"));
        assertThat(repository().find("f-2")).isEmpty();
    }

    @Test
    void theBlobKeysOfEveryFileAreListed() {
        repository().save(file("f-1", "blob-1"));
        repository().save(file("f-2", "blob-2"));

        assertThat(repository().blobKeys()).containsExactlyInAnyOrder("blob-1", "blob-2");
    }
}
