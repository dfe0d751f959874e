package dev.hexaflow.adapters.persistence;

import static dev.hexaflow.adapters.persistence.WorkflowFixtures.upload;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hexaflow.application.files.port.out.UploadRepository;
import dev.hexaflow.domain.app.UploadedFile;
import org.junit.jupiter.api.Test;

/**
 * What every {@link UploadRepository} promises; each adapter runs it by extending this class, with the app and
 * end user of {@link WorkflowFixtures} there.
 */
abstract class UploadRepositoryContract {

    protected abstract UploadRepository repository();

    private static final String BLOB = "0123456789abcdef0123456789abcdef";
    private static final String OTHER_BLOB = "fedcba9876543210fedcba9876543210";

    @Test
    void anAddedUploadIsFoundWholeAndAnUnknownIdFindsNothing() {
        UploadedFile file = upload("f1", BLOB);

        repository().add(file);

        assertThat(repository().find("f1")).contains(file);
        assertThat(repository().find("f2")).isEmpty();
    }

    @Test
    void addingAnIdTwiceIsRefusedAndTheFirstRecordStays() {
        repository().add(upload("f1", BLOB));

        assertThatThrownBy(() -> repository().add(upload("f1", OTHER_BLOB))).isInstanceOf(RuntimeException.class);

        assertThat(repository().find("f1")).map(UploadedFile::blobKey).contains(BLOB);
        assertThat(repository().blobKeys()).containsExactly(BLOB);
    }

    @Test
    void theBlobKeysAreThoseTheRecordsNameEachOnce() {
        repository().add(upload("f1", BLOB));
        repository().add(upload("f2", OTHER_BLOB));
        repository().add(upload("f3", BLOB));

        assertThat(repository().blobKeys()).containsExactlyInAnyOrder(BLOB, OTHER_BLOB);
    }

    @Test
    void theUploadsOfAnAppSinceATimeAreCountedWithTheirBytesInAllOrForOneEndUser() {
        repository().add(upload("f1", BLOB));
        repository().add(new UploadedFile("f2", WorkflowFixtures.OTHER_APP, WorkflowFixtures.UPLOADER, "f2.pdf", 100,
                "pdf", "application/pdf", OTHER_BLOB, 9));
        repository().add(new UploadedFile("f3", WorkflowFixtures.APP, WorkflowFixtures.UPLOADER, "f3.pdf", 1000,
                "pdf", "application/pdf", BLOB, 3));

        assertThat(repository().usedSince(WorkflowFixtures.APP, null, 7))
                .isEqualTo(new UploadRepository.Usage(1, 42));
        assertThat(repository().usedSince(WorkflowFixtures.APP, WorkflowFixtures.UPLOADER, 0))
                .isEqualTo(new UploadRepository.Usage(2, 1042));
        assertThat(repository().usedSince(WorkflowFixtures.APP, "nobody", 0))
                .isEqualTo(new UploadRepository.Usage(0, 0));
        assertThat(repository().usedSince(WorkflowFixtures.OTHER_APP, null, 0))
                .isEqualTo(new UploadRepository.Usage(1, 100));
    }

    @Test
    void aStoreWithNoUploadsNamesNoBlobs() {
        assertThat(repository().blobKeys()).isEmpty();
    }
}
