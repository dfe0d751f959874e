package dev.hexaflow.adapters.persistence;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hexaflow.application.common.port.out.BlobStore;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FileSystemBlobStoreTest {

    @TempDir
    Path dir;

    @Nested
    class Contract extends BlobStoreContract {
        @TempDir
        Path files;

        @Override
        protected BlobStore store() {
            return new FileSystemBlobStore(files);
        }
    }

    @Test
    void aBlobIsAFileNamedByItsKeyAndDeletingItDeletesTheFile() {
        FileSystemBlobStore store = new FileSystemBlobStore(dir);

        BlobStore.Stored stored = store.put(new ByteArrayInputStream("hello".getBytes()), 100);

        assertThat(dir.resolve(stored.key())).hasContent("hello");
        store.delete(stored.key());
        assertThat(dir.resolve(stored.key())).doesNotExist();
    }

    @Test
    void aBlobOverTheLimitLeavesNoFileBehind() throws IOException {
        FileSystemBlobStore store = new FileSystemBlobStore(dir);

        assertThatThrownBy(() -> store.put(new ByteArrayInputStream(new byte[200_000]), 100_000))
                .isInstanceOf(BlobStore.TooLargeException.class);

        try (Stream<Path> files = Files.list(dir)) {
            assertThat(files).isEmpty();
        }
    }

    @Test
    void aPartFileLeftByACutOffWriteIsDroppedWhenTheKeysAreListed() throws IOException {
        FileSystemBlobStore store = new FileSystemBlobStore(dir);
        Files.writeString(dir.resolve("0123456789abcdef0123456789abcdef.part"), "half");

        assertThat(store.keys()).isEmpty();

        try (Stream<Path> files = Files.list(dir)) {
            assertThat(files).isEmpty();
        }
    }
}
