package dev.hexaflow.adapters.persistence;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hexaflow.application.app.port.out.BlobStore;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FileSystemBlobStoreTest {

    @TempDir
    Path dir;

    @Test
    void aBlobIsKeptUnderAKeyItMadeAndReadBackAndDeleted() {
        FileSystemBlobStore store = new FileSystemBlobStore(dir);

        BlobStore.Stored stored = store.put(new ByteArrayInputStream("hello".getBytes()), 100);

        assertThat(stored.key()).matches("[0-9a-f]{32}");
        assertThat(stored.size()).isEqualTo(5);
        assertThat(store.read(stored.key())).isEqualTo("hello".getBytes());
        store.delete(stored.key());
        assertThat(dir.resolve(stored.key())).doesNotExist();
    }

    @Test
    void aBlobOverTheLimitLeavesNothingBehind() throws IOException {
        FileSystemBlobStore store = new FileSystemBlobStore(dir);

        assertThatThrownBy(() -> store.put(new ByteArrayInputStream(new byte[200_000]), 100_000))
                .isInstanceOf(BlobStore.TooLargeException.class);

        try (Stream<Path> files = Files.list(dir)) {
            assertThat(files).isEmpty();
        }
    }

    @Test
    void aKeyThatIsNotTheStoresOwnNeverNamesAPath() {
        FileSystemBlobStore store = new FileSystemBlobStore(dir);

        assertThatThrownBy(() -> store.read("../../etc/passwd")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> store.delete("/etc/passwd")).isInstanceOf(IllegalArgumentException.class);
    }
}
