package dev.hexaflow.application.files;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hexaflow.adapters.persistence.memory.InMemoryBlobStore;
import dev.hexaflow.adapters.persistence.memory.InMemoryEndUserRepository;
import dev.hexaflow.adapters.persistence.memory.InMemoryUploadRepository;
import dev.hexaflow.application.MovableClock;
import dev.hexaflow.application.common.ApiError;
import dev.hexaflow.application.common.ApiException;
import dev.hexaflow.application.common.StorageUnavailableException;
import dev.hexaflow.application.common.port.out.BlobStore;
import dev.hexaflow.application.common.port.out.StorageHealth;
import dev.hexaflow.application.files.port.in.UploadFileUseCase.UploadFileCommand;
import dev.hexaflow.application.files.port.out.UploadRepository;
import dev.hexaflow.application.files.service.UploadFileService;
import dev.hexaflow.domain.app.PageUploadQuota;
import dev.hexaflow.domain.app.UploadLimits;
import dev.hexaflow.domain.app.UploadedFile;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Upload rules beyond {@link FileUseCasesTest}: names, categories by extension, end users, page quotas over time,
 * and a store that fails part way; on the in-memory upload records, end users and blob store. Each category has
 * its own limit here (images 1 MB, video 2, audio 3, the rest 4), so the limit named shows the category.
 */
class UploadRulesTest {

    private static final int MB = 1024 * 1024;

    private final InMemoryUploadRepository uploads = new InMemoryUploadRepository();
    private final InMemoryEndUserRepository endUsers = new InMemoryEndUserRepository();
    private final InMemoryBlobStore blobs = new InMemoryBlobStore();
    private final MovableClock clock = new MovableClock(Instant.parse("2026-03-01T10:00:00Z"));
    private final AtomicInteger ids = new AtomicInteger();
    private final UploadLimits limits = new UploadLimits(1, 2, 3, 4);

    private UploadFileService service(UploadRepository records, BlobStore store, PageUploadQuota quota) {
        return new UploadFileService(records, endUsers, store, limits, quota, clock, () -> "id-" + ids.incrementAndGet(),
                StorageHealth.UNWATCHED);
    }

    private final UploadFileService upload = service(uploads, blobs, new PageUploadQuota(2, 1));

    private static UploadFileCommand file(String app, String user, String name, int bytes, boolean fromPage) {
        return new UploadFileCommand(app, user, 1, name, "application/octet-stream",
                new ByteArrayInputStream(new byte[bytes]), fromPage);
    }

    private static void assertRefused(Runnable call, ApiError error, String message) {
        assertThatThrownBy(call::run).isInstanceOfSatisfying(ApiException.class, e -> {
            assertThat(e.error()).isEqualTo(error);
            assertThat(e.getMessage()).isEqualTo(message);
        });
    }

    @Test
    void everyForbiddenOrControlCharacterInANameIsRefused() {
        for (String bad : List.of("a/b", "a\\b", "a:b", "a*b", "a?b", "a\"b", "a<b", "a>b", "a|b", "a\tb", "a\u007fb")) {
            assertRefused(() -> upload.upload(file("app-1", "ada", bad + ".txt", 1, false)), ApiError.INVALID_PARAM,
                    "Filename contains invalid characters");
        }
        assertThat(blobs.keys()).isEmpty();
        assertThat(upload.upload(file("app-1", "ada", "notes (v2) #1.txt", 1, false)).name())
                .isEqualTo("notes (v2) #1.txt");
    }

    @Test
    void theExtensionIsLowerCasedAndDecidesTheLimitAFileMeetsWhateverItsMediaType() {
        assertRefused(() -> upload.upload(file("app-1", "ada", "photo.PNG", MB + 1, false)), ApiError.FILE_TOO_LARGE,
                "File size exceeded. image files may be at most 1 MB.");
        assertRefused(() -> upload.upload(file("app-1", "ada", "clip.Mp4", 2 * MB + 1, false)),
                ApiError.FILE_TOO_LARGE, "File size exceeded. video files may be at most 2 MB.");
        assertRefused(() -> upload.upload(file("app-1", "ada", "talk.wav", 3 * MB + 1, false)),
                ApiError.FILE_TOO_LARGE, "File size exceeded. audio files may be at most 3 MB.");

        UploadedFile report = upload.upload(file("app-1", "ada", "REPORT.PDF", 3 * MB, false));

        assertThat(report.extension()).isEqualTo("pdf");
        assertThat(report.name()).isEqualTo("REPORT.PDF");
    }

    @Test
    void aNameWithoutADotHasNoExtensionAndALongOneIsCutToTwoHundredCharacters() {
        UploadedFile plain = upload.upload(file("app-1", "ada", "Makefile", 1, false));
        UploadedFile longName = upload.upload(file("app-1", "ada", "m".repeat(250), 1, false));

        assertThat(plain.extension()).isEmpty();
        assertThat(plain.name()).isEqualTo("Makefile");
        assertThat(longName.name()).isEqualTo("m".repeat(200));
    }

    @Test
    void oneUserUploadingTwiceIsOneEndUserAndTheSameNameInAnotherAppIsAnother() {
        UploadedFile first = upload.upload(file("app-1", "ada", "a.txt", 1, false));
        UploadedFile second = upload.upload(file("app-1", "ada", "b.txt", 1, false));
        UploadedFile elsewhere = upload.upload(file("app-2", "ada", "c.txt", 1, false));

        assertThat(second.endUserId()).isEqualTo(first.endUserId());
        assertThat(elsewhere.endUserId()).isNotEqualTo(first.endUserId());
        assertThat(endUsers.find("app-2", "ada").orElseThrow().id()).isEqualTo(elsewhere.endUserId());
    }

    @Test
    void aPagesDailyBytesComeBackAfterADayAndEachAppsPageHasItsOwn() {
        upload.upload(file("app-1", "web-v", "a.txt", MB - 10, true));
        assertRefused(() -> upload.upload(file("app-1", "web-w", "b.txt", 20, true)), ApiError.TOO_MANY_REQUESTS,
                "Too many uploads: this app's web page takes 1 MB of files a day. Please try again later.");

        UploadedFile otherApp = upload.upload(file("app-2", "web-w", "b.txt", 20, true));
        clock.advance(Duration.ofHours(24).plusSeconds(1));
        UploadedFile nextDay = upload.upload(file("app-1", "web-w", "b.txt", 20, true));

        assertThat(otherApp.size()).isEqualTo(20);
        assertThat(nextDay.size()).isEqualTo(20);
    }

    @Test
    void aQuotaOfZeroBoundsNothing() {
        UploadFileService unbounded = service(uploads, blobs, new PageUploadQuota(0, 0));

        for (int i = 0; i < 5; i++) {
            unbounded.upload(file("app-1", "web-v", i + ".txt", MB, true));
        }

        assertThat(blobs.keys()).hasSize(5);
    }

    @Test
    void aRecordThatCannotBeKeptLetsItsBlobGo() {
        UploadRepository refusing = new UploadRepository() {
            @Override
            public void add(UploadedFile file) {
                throw new IllegalStateException("the upload table is locked");
            }

            @Override
            public Optional<UploadedFile> find(String id) {
                return Optional.empty();
            }

            @Override
            public Set<String> blobKeys() {
                return Set.of();
            }

            @Override
            public Usage usedSince(String appId, String endUserId, long since) {
                return new Usage(0, 0);
            }
        };

        assertThatThrownBy(() -> service(refusing, blobs, PageUploadQuota.DEFAULTS).upload(file("app-1", "ada",
                "a.txt", 5, false))).isInstanceOf(IllegalStateException.class);
        assertThat(blobs.keys()).isEmpty();
    }

    @Test
    void aStoreThatFailsWhileWritingIsRefusedAsOutOfRoomOrOutOfReach() {
        BlobStore full = failingStore(StorageUnavailableException.Kind.WRITES_FAILING, "No space left on device");
        BlobStore away = failingStore(StorageUnavailableException.Kind.UNREACHABLE, "The database is unreachable.");

        assertRefused(() -> service(uploads, full, PageUploadQuota.DEFAULTS).upload(file("app-1", "ada", "a.txt", 5,
                false)), ApiError.INSUFFICIENT_STORAGE, "No space left on device");
        assertRefused(() -> service(uploads, away, PageUploadQuota.DEFAULTS).upload(file("app-1", "ada", "a.txt", 5,
                false)), ApiError.SERVICE_UNAVAILABLE, "The database is unreachable.");
        assertThat(uploads.blobKeys()).isEmpty();
    }

    /** A blob store whose writes fail as a full disk or a lost database makes them fail. */
    private BlobStore failingStore(StorageUnavailableException.Kind kind, String message) {
        return new BlobStore() {
            @Override
            public Stored put(InputStream content, long maxBytes) {
                throw new StorageUnavailableException(kind, message);
            }

            @Override
            public byte[] read(String key) {
                return blobs.read(key);
            }

            @Override
            public void delete(String key) {
                blobs.delete(key);
            }

            @Override
            public List<String> keys() {
                return blobs.keys();
            }
        };
    }
}
