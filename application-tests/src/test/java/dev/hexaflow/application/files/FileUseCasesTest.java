package dev.hexaflow.application.files;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hexaflow.adapters.persistence.memory.InMemoryBlobStore;
import dev.hexaflow.adapters.persistence.memory.InMemoryEndUserRepository;
import dev.hexaflow.adapters.persistence.memory.InMemoryUploadRepository;
import dev.hexaflow.application.MovableClock;
import dev.hexaflow.application.common.ApiError;
import dev.hexaflow.application.common.ApiException;
import dev.hexaflow.application.common.FileSignatures;
import dev.hexaflow.application.common.StorageUnavailableException;
import dev.hexaflow.application.common.port.out.StorageHealth;
import dev.hexaflow.application.files.port.in.PreviewUploadUseCase.AppFileQuery;
import dev.hexaflow.application.files.port.in.PreviewUploadUseCase.PreviewUploadQuery;
import dev.hexaflow.application.files.port.in.PreviewUploadUseCase.UploadContent;
import dev.hexaflow.application.files.port.in.UploadFileUseCase.UploadFileCommand;
import dev.hexaflow.application.files.service.PreviewUploadService;
import dev.hexaflow.application.files.service.UploadFileService;
import dev.hexaflow.domain.app.PageUploadQuota;
import dev.hexaflow.domain.app.UploadLimits;
import dev.hexaflow.domain.app.UploadedFile;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;

/**
 * Uploading files and previewing them by signed URL, on the in-memory upload records, end users and blob store.
 * Limits are 1 MB for every category, and a page's visitor may upload 2 files an hour, the page 1 MB a day.
 */
class FileUseCasesTest {

    private static final int MB = 1024 * 1024;

    private final InMemoryUploadRepository uploads = new InMemoryUploadRepository();
    private final InMemoryEndUserRepository endUsers = new InMemoryEndUserRepository();
    private final InMemoryBlobStore blobs = new InMemoryBlobStore();
    private final MovableClock clock = new MovableClock(Instant.parse("2026-03-01T10:00:00Z"));
    private final AtomicInteger ids = new AtomicInteger();
    private Optional<StorageUnavailableException> storageProblem = Optional.empty();
    private final UploadFileService upload = new UploadFileService(uploads, endUsers, blobs,
            new UploadLimits(1, 1, 1, 1), new PageUploadQuota(2, 1), clock, () -> "id-" + ids.incrementAndGet(),
            () -> storageProblem);
    private final FileSignatures signatures = new FileSignatures(message -> ("sig" + Arrays.hashCode(message))
            .getBytes(StandardCharsets.US_ASCII), length -> "n".repeat(length), clock);
    private final PreviewUploadService preview = new PreviewUploadService(uploads, blobs, signatures);

    private static UploadFileCommand file(String user, String name, byte[] bytes, boolean fromPage) {
        return new UploadFileCommand("app-1", user, 1, name, "text/plain", new ByteArrayInputStream(bytes), fromPage);
    }

    private UploadedFile upload(String name, String text) {
        return upload.upload(file("ada", name, text.getBytes(StandardCharsets.UTF_8), false));
    }

    @Test
    void anUploadKeepsItsBytesAndARecordForItsEndUser() {
        UploadedFile kept = upload("Notes.TXT", "hello");

        assertThat(kept.name()).isEqualTo("Notes.TXT");
        assertThat(kept.extension()).isEqualTo("txt");
        assertThat(kept.size()).isEqualTo(5);
        assertThat(kept.createdAt()).isEqualTo(clock.instant().getEpochSecond());
        assertThat(uploads.find(kept.id())).contains(kept);
        assertThat(new String(blobs.read(kept.blobKey()), StandardCharsets.UTF_8)).isEqualTo("hello");
        assertThat(endUsers.find("app-1", "ada").orElseThrow().id()).isEqualTo(kept.endUserId());
    }

    @Test
    void anUploadWithoutAUserIsTheDefaultUsers() {
        UploadedFile kept = upload.upload(file(" ", "a.txt", new byte[] {1}, false));

        assertThat(endUsers.find("app-1", "DEFAULT-USER").orElseThrow().id()).isEqualTo(kept.endUserId());
    }

    @Test
    void aLongNameIsCutToTwoHundredCharactersKeepingItsExtension() {
        UploadedFile kept = upload("n".repeat(300) + ".md", "x");

        assertThat(kept.name()).isEqualTo("n".repeat(200) + ".md");
    }

    @Test
    void eachMalformedRequestIsRefusedWithDifysCodeAndKeepsNothing() {
        byte[] one = {1};
        assertRefused(() -> upload.upload(new UploadFileCommand("app-1", "ada", 0, "a.txt", "text/plain",
                new ByteArrayInputStream(one), false)), ApiError.NO_FILE_UPLOADED, "Please upload your file.");
        assertRefused(() -> upload.upload(new UploadFileCommand("app-1", "ada", 2, "a.txt", "text/plain",
                new ByteArrayInputStream(one), false)), ApiError.TOO_MANY_FILES, "Only one file is allowed.");
        assertRefused(() -> upload.upload(new UploadFileCommand("app-1", "ada", 1, "a.txt", " ",
                new ByteArrayInputStream(one), false)), ApiError.UNSUPPORTED_FILE_TYPE, "File type not allowed.");
        assertRefused(() -> upload.upload(file("ada", "", one, false)), ApiError.FILENAME_NOT_EXISTS,
                "The specified filename does not exist.");
        assertRefused(() -> upload.upload(file("ada", "../etc/passwd", one, false)), ApiError.INVALID_PARAM,
                "Filename contains invalid characters");
        assertRefused(() -> upload.upload(file("ada", "a." + "x".repeat(51), one, false)), ApiError.INVALID_PARAM,
                "The file's extension must be at most 50 characters.");
        assertRefused(() -> upload.upload(file("u".repeat(256), "a.txt", one, false)), ApiError.INVALID_PARAM,
                "Arg user must be at most 255 characters.");

        assertThat(blobs.keys()).isEmpty();
    }

    @Test
    void aFileOverItsCategorysLimitIsRefusedNamingTheCategoryAndLeavesNoBlob() {
        assertRefused(() -> upload.upload(file("ada", "big.png", new byte[MB + 1], false)), ApiError.FILE_TOO_LARGE,
                "File size exceeded. image files may be at most 1 MB.");
        assertRefused(() -> upload.upload(file("ada", "big.bin", new byte[MB + 1], false)), ApiError.FILE_TOO_LARGE,
                "File size exceeded. custom files may be at most 1 MB.");

        assertThat(blobs.keys()).isEmpty();
        assertThat(upload.upload(file("ada", "fits.png", new byte[MB], false)).size()).isEqualTo(MB);
    }

    @Test
    void aStoreLowOnRoomRefusesTheUploadBeforeAnyByteIsKept() {
        storageProblem = Optional.of(new StorageUnavailableException(StorageUnavailableException.Kind.DISK_LOW,
                "The disk is almost full."));

        assertRefused(() -> upload("a.txt", "x"), ApiError.INSUFFICIENT_STORAGE, "The disk is almost full.");
        assertThat(blobs.keys()).isEmpty();
    }

    @Test
    void aPagesVisitorUploadsAtMostItsFilesAnHourWhileAnApiCallerIsNotBound() {
        upload.upload(file("web-v", "1.txt", new byte[] {1}, true));
        upload.upload(file("web-v", "2.txt", new byte[] {1}, true));

        assertRefused(() -> upload.upload(file("web-v", "3.txt", new byte[] {1}, true)), ApiError.TOO_MANY_REQUESTS,
                "Too many uploads: a web page's visitor may upload 2 files an hour. Please try again later.");
        assertThat(upload.upload(file("web-v", "3.txt", new byte[] {1}, false))).isNotNull();
        assertThat(upload.upload(file("web-w", "1.txt", new byte[] {1}, true))).isNotNull();
        clock.advance(Duration.ofMinutes(61));
        assertThat(upload.upload(file("web-v", "4.txt", new byte[] {1}, true)).name()).isEqualTo("4.txt");
    }

    @Test
    void aPageTakesAtMostItsBytesADayAcrossVisitorsAndLetsTheOverflowingBlobGo() {
        upload.upload(file("web-v", "a.txt", new byte[MB - 10], true));

        assertRefused(() -> upload.upload(file("web-w", "b.txt", new byte[20], true)), ApiError.TOO_MANY_REQUESTS,
                "Too many uploads: this app's web page takes 1 MB of files a day. Please try again later.");
        assertThat(blobs.keys()).hasSize(1);
    }

    @Test
    void aSignedUrlServesTheUploadForFiveMinutes() {
        UploadedFile kept = upload("notes.txt", "hello");
        PreviewUploadQuery query = signedQuery(kept.id());

        UploadContent content = preview.preview(query);

        assertThat(new String(content.bytes(), StandardCharsets.UTF_8)).isEqualTo("hello");
        assertThat(content.name()).isEqualTo("notes.txt");
        assertThat(content.mimeType()).isEqualTo("text/plain");
        clock.advance(FileSignatures.ACCESS_TIMEOUT.plusSeconds(1));
        assertRefused(() -> preview.preview(query), ApiError.FORBIDDEN, "Invalid request.");
    }

    @Test
    void aSignatureForAnotherFileOrATamperedOneIsForbiddenAndAnUnknownFileNotFound() {
        UploadedFile kept = upload("notes.txt", "hello");
        PreviewUploadQuery other = signedQuery("id-other");

        assertRefused(() -> preview.preview(new PreviewUploadQuery(kept.id(), other.timestamp(), other.nonce(),
                other.sign())), ApiError.FORBIDDEN, "Invalid request.");
        assertRefused(() -> preview.preview(new PreviewUploadQuery(kept.id(), "12", "nonce", "%%")),
                ApiError.FORBIDDEN, "Invalid request.");
        assertRefused(() -> preview.preview(other), ApiError.NOT_FOUND, "file is not found");
    }

    @Test
    void anAppsKeyReadsItsOwnUploadsByIdWithoutASignature() {
        UploadedFile kept = upload("page.html", "<p>hi</p>");

        UploadContent content = preview.previewForApp(new AppFileQuery("app-1", kept.id()));

        assertThat(new String(content.bytes(), StandardCharsets.UTF_8)).isEqualTo("<p>hi</p>");
        assertThat(content.name()).isEqualTo("page.html");
        assertThat(content.extension()).isEqualTo("html");
        clock.advance(FileSignatures.ACCESS_TIMEOUT.plusSeconds(1));
        assertThat(preview.previewForApp(new AppFileQuery("app-1", kept.id())).bytes()).hasSize(9);
    }

    @Test
    void anotherAppsUploadIsDeniedAndAnUnknownOrLostOneIsNotFoundAsDifySaysIt() {
        UploadedFile kept = upload("notes.txt", "hello");

        assertRefused(() -> preview.previewForApp(new AppFileQuery("app-2", kept.id())),
                ApiError.FILE_ACCESS_DENIED, "File access denied: not owned by requesting app");
        assertRefused(() -> preview.previewForApp(new AppFileQuery("app-1", "id-none")), ApiError.FILE_NOT_FOUND,
                "File not found in message context");
        blobs.delete(kept.blobKey());
        assertRefused(() -> preview.previewForApp(new AppFileQuery("app-1", kept.id())), ApiError.FILE_NOT_FOUND,
                "Failed to load file content.");
    }

    /** The parts of a URL signed now for {@code id}. */
    private PreviewUploadQuery signedQuery(String id) {
        String url = signatures.signed("/files/" + id + "/file-preview", id);
        String[] parts = url.substring(url.indexOf('?') + 1).split("&");
        return new PreviewUploadQuery(id, value(parts[0]), value(parts[1]), value(parts[2]));
    }

    private static String value(String pair) {
        return pair.substring(pair.indexOf('=') + 1);
    }

    private static void assertRefused(ThrowingCallable call, ApiError error, String message) {
        assertThatThrownBy(call).isInstanceOfSatisfying(ApiException.class, e -> {
            assertThat(e.error()).isEqualTo(error);
            assertThat(e.getMessage()).isEqualTo(message);
        });
    }
}
