package dev.hexaflow.application.files;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hexaflow.adapters.persistence.memory.InMemoryBlobStore;
import dev.hexaflow.adapters.persistence.memory.InMemoryEndUserRepository;
import dev.hexaflow.adapters.persistence.memory.InMemoryUploadRepository;
import dev.hexaflow.application.MovableClock;
import dev.hexaflow.application.common.port.out.StorageHealth;
import dev.hexaflow.application.files.port.in.UploadFileUseCase.UploadFileCommand;
import dev.hexaflow.application.files.service.UploadFileService;
import dev.hexaflow.application.files.service.UploadedFileContents;
import dev.hexaflow.domain.app.PageUploadQuota;
import dev.hexaflow.domain.app.UploadLimits;
import dev.hexaflow.domain.app.UploadedFile;
import dev.hexaflow.domain.workflow.FileValue;
import dev.hexaflow.workflow.engine.StopSignal;
import dev.hexaflow.workflow.port.out.FileContents;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * What a workflow reads of a file it is given: an upload's bytes from the blob store it was uploaded to, and any
 * other file from the next source, here one that writes down what it was asked and answers its URL.
 */
class UploadedFileContentsTest {

    private final InMemoryUploadRepository uploads = new InMemoryUploadRepository();
    private final InMemoryBlobStore blobs = new InMemoryBlobStore();
    private final AtomicInteger ids = new AtomicInteger();
    private final UploadFileService upload = new UploadFileService(uploads, new InMemoryEndUserRepository(), blobs,
            UploadLimits.DIFY, PageUploadQuota.DEFAULTS, new MovableClock(Instant.parse("2026-03-01T10:00:00Z")),
            () -> "id-" + ids.incrementAndGet(), StorageHealth.UNWATCHED);
    private final List<String> askedElsewhere = new ArrayList<>();
    private final FileContents elsewhere = (file, stop) -> {
        askedElsewhere.add(file.transferMethod());
        return file.remoteUrl().getBytes(StandardCharsets.UTF_8);
    };
    private final UploadedFileContents contents = new UploadedFileContents(uploads, blobs, elsewhere);

    private UploadedFile uploaded(String text) {
        return upload.upload(new UploadFileCommand("app-1", "ada", 1, "notes.txt", "text/plain",
                new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)), false));
    }

    private static FileValue local(String id, String relatedId) {
        return new FileValue(id, "document", "local_file", null, relatedId, "notes.txt", ".txt", "text/plain", 5,
                null);
    }

    private String read(FileValue file) {
        return new String(contents.read(file, StopSignal.NEVER), StandardCharsets.UTF_8);
    }

    @Test
    void anUploadIsReadFromTheBlobStoreByItsRelatedIdOrElseItsOwnId() {
        UploadedFile first = uploaded("first");
        UploadedFile second = uploaded("second");

        assertThat(read(local("f1", first.id()))).isEqualTo("first");
        assertThat(read(local(second.id(), null))).isEqualTo("second");
        assertThat(askedElsewhere).isEmpty();
    }

    @Test
    void aFileThatIsNoUploadIsReadFromTheNextSource() {
        FileValue remote = new FileValue("f1", "image", "remote_url", "https://cdn.example/c.png", null, "c.png",
                ".png", "image/png", 3, null);

        assertThat(read(remote)).isEqualTo("https://cdn.example/c.png");
        assertThat(askedElsewhere).containsExactly("remote_url");
    }

    @Test
    void anUploadThisServerDoesNotKeepFailsTheReadNamingIt() {
        uploaded("kept");

        assertThatThrownBy(() -> read(local("f1", "up-elsewhere")))
                .isInstanceOf(FileContents.FileException.class)
                .hasMessage("the upload up-elsewhere is not kept on this server");
        assertThat(askedElsewhere).as("an upload is never fetched from elsewhere").isEmpty();
    }
}
