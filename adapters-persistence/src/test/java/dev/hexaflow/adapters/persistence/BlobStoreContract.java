package dev.hexaflow.adapters.persistence;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hexaflow.application.common.port.out.BlobStore;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** What every {@link BlobStore} promises; each adapter runs it by extending this class. */
abstract class BlobStoreContract {

    protected abstract BlobStore store();

    private static InputStream bytes(int n) {
        return new ByteArrayInputStream(new byte[n]);
    }

    @Test
    void aBlobIsKeptUnderAKeyItMadeAndReadBackWhole() {
        BlobStore.Stored stored = store().put(new ByteArrayInputStream("hello".getBytes(StandardCharsets.UTF_8)),
                100);

        assertThat(stored.key()).matches("[0-9a-f]{32}");
        assertThat(stored.size()).isEqualTo(5);
        assertThat(store().read(stored.key())).isEqualTo("hello".getBytes(StandardCharsets.UTF_8));
        assertThat(store().keys()).containsExactly(stored.key());
    }

    @Test
    void eachBlobGetsAKeyOfItsOwn() {
        BlobStore.Stored first = store().put(bytes(3), 100);
        BlobStore.Stored second = store().put(bytes(3), 100);

        assertThat(first.key()).isNotEqualTo(second.key());
        assertThat(store().keys()).containsExactlyInAnyOrder(first.key(), second.key());
    }

    @Test
    void anEmptyStreamIsABlobOfNoBytes() {
        BlobStore.Stored stored = store().put(bytes(0), 100);

        assertThat(stored.size()).isZero();
        assertThat(store().read(stored.key())).isEmpty();
    }

    @Test
    void aBlobOfExactlyTheLimitIsKeptAndOneByteMoreIsRefusedLeavingNothing() {
        BlobStore.Stored atLimit = store().put(bytes(100_000), 100_000);

        assertThatThrownBy(() -> store().put(bytes(100_001), 100_000))
                .isInstanceOf(BlobStore.TooLargeException.class);

        assertThat(atLimit.size()).isEqualTo(100_000);
        assertThat(store().keys()).containsExactly(atLimit.key());
    }

    @Test
    void aStreamThatBreaksOffLeavesNothing() {
        InputStream broken = new InputStream() {
            private int read;

            @Override
            public int read() throws IOException {
                if (read++ == 1_000) {
                    throw new IOException("the client went away");
                }
                return 'x';
            }
        };

        assertThatThrownBy(() -> store().put(broken, 100_000)).isInstanceOf(RuntimeException.class);

        assertThat(store().keys()).isEmpty();
    }

    @Test
    void aDeletedBlobIsNeitherListedNorReadAndDeletingItAgainIsHarmless() {
        BlobStore.Stored stored = store().put(bytes(3), 100);

        store().delete(stored.key());
        store().delete(stored.key());

        assertThat(store().keys()).isEmpty();
        assertThatThrownBy(() -> store().read(stored.key())).isInstanceOf(RuntimeException.class);
    }

    @Test
    void readingAKeyWithNoBlobIsRefused() {
        assertThatThrownBy(() -> store().read("0123456789abcdef0123456789abcdef"))
                .isInstanceOf(RuntimeException.class);
    }

    @Test
    void aKeyThatIsNotOfTheStoresFormIsRefused() {
        assertThatThrownBy(() -> store().read("../../etc/passwd")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> store().delete("/etc/passwd")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> store().read(null)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aNewStoreHoldsNoBlobs() {
        assertThat(store().keys()).isEmpty();
    }
}
