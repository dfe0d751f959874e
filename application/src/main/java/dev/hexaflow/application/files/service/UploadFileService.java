package dev.hexaflow.application.files.service;

import dev.hexaflow.application.apps.port.out.EndUserRepository;
import dev.hexaflow.application.common.ApiError;
import dev.hexaflow.application.common.ApiException;
import dev.hexaflow.application.common.EndUsers;
import dev.hexaflow.application.common.StorageRefusals;
import dev.hexaflow.application.common.StorageUnavailableException;
import dev.hexaflow.application.common.TextLimits;
import dev.hexaflow.application.common.port.out.BlobStore;
import dev.hexaflow.application.common.port.out.StorageHealth;
import dev.hexaflow.application.files.port.in.UploadFileUseCase;
import dev.hexaflow.application.files.port.out.UploadRepository;
import dev.hexaflow.domain.app.EndUser;
import dev.hexaflow.domain.app.FileCategory;
import dev.hexaflow.domain.app.PageUploadQuota;
import dev.hexaflow.domain.app.UploadLimits;
import dev.hexaflow.domain.app.UploadedFile;
import java.time.Clock;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;

/**
 * Dify's upload checks in Dify's order (a file part, only one, a media type, a name, no forbidden characters,
 * the size limit of its category), then the bytes and the record: the blob is written first and deleted again if
 * the record cannot be kept, so a failed upload leaves nothing. A name never reaches the file system: blobs are
 * kept under keys the store makes.
 */
public final class UploadFileService implements UploadFileUseCase {

    static final String DEFAULT_USER = "DEFAULT-USER";
    private static final String FORBIDDEN = "/\\:*?\"<>|";
    /**
     * Dify cuts a long name to 200 characters and its extension; an extension this long is no file type anyone
     * has, and would make the name longer than the 255 characters Dify's column keeps.
     */
    static final int MAX_EXTENSION_LENGTH = 50;

    private final UploadRepository uploads;
    private final EndUserRepository endUsers;
    private final BlobStore blobs;
    private final UploadLimits limits;
    private final PageUploadQuota pageQuota;
    /** A page's uploads under way, by app and visitor; also the lock of the page quota's checks. */
    private final java.util.Map<String, Integer> pageUploads = new java.util.HashMap<>();
    private final Clock clock;
    private final Supplier<String> ids;
    private final StorageHealth storage;

    /** @param pageQuota what a web page's visitors may upload, beside each file's size limit */
    public UploadFileService(UploadRepository uploads, EndUserRepository endUsers, BlobStore blobs, UploadLimits limits,
            PageUploadQuota pageQuota, Clock clock, Supplier<String> ids, StorageHealth storage) {
        this.storage = storage;
        this.pageQuota = pageQuota;
        this.uploads = uploads;
        this.endUsers = endUsers;
        this.blobs = blobs;
        this.limits = limits;
        this.clock = clock;
        this.ids = ids;
    }

    @Override
    public UploadedFile upload(UploadFileCommand command) {
        if (command.fileParts() == 0) {
            throw new ApiException(ApiError.NO_FILE_UPLOADED, "Please upload your file.");
        }
        if (command.fileParts() > 1) {
            throw new ApiException(ApiError.TOO_MANY_FILES, "Only one file is allowed.");
        }
        if (command.mimeType() == null || command.mimeType().isBlank()) {
            throw new ApiException(ApiError.UNSUPPORTED_FILE_TYPE, "File type not allowed.");
        }
        String name = command.filename();
        if (name == null || name.isBlank()) {
            throw new ApiException(ApiError.FILENAME_NOT_EXISTS, "The specified filename does not exist.");
        }
        for (char c : name.toCharArray()) {
            if (FORBIDDEN.indexOf(c) >= 0 || c < 0x20 || c == 0x7f) {
                throw new ApiException(ApiError.INVALID_PARAM, "Filename contains invalid characters");
            }
        }
        int dot = name.lastIndexOf('.');
        String extension = dot < 0 ? "" : name.substring(dot + 1).toLowerCase(Locale.ROOT);
        if (extension.length() > MAX_EXTENSION_LENGTH) {
            throw new ApiException(ApiError.INVALID_PARAM, "The file's extension must be at most "
                    + MAX_EXTENSION_LENGTH + " characters.");
        }
        if (name.length() > 200) {
            String stem = dot < 0 ? name : name.substring(0, dot);
            name = stem.substring(0, Math.min(stem.length(), 200)) + (extension.isEmpty() ? "" : "." + extension);
        }
        FileCategory category = FileCategory.of(extension);
        long max = limits.maxBytes(category);
        String user = command.user() == null || command.user().isBlank() ? DEFAULT_USER
                : TextLimits.atMost("Arg user", command.user(), EndUsers.MAX_ID_LENGTH);
        StorageRefusals.requireRoom(storage);
        try {
            return keep(command, name, extension, category, max, user);
        } catch (StorageUnavailableException e) {
            throw StorageRefusals.refused(e);
        }
    }

    private UploadedFile keep(UploadFileCommand command, String name, String extension, FileCategory category,
            long max, String user) {
        EndUser endUser = endUsers.findOrAdd(new EndUser(ids.get(), command.appId(), user, now()));
        if (!command.fromPage()) {
            return store(command, name, extension, category, max, endUser);
        }
        // A page's uploads sent at once are counted one after another, not each against the count before any of
        // them: a visitor's uploads under way count toward its files, and the byte check and the record of an
        // upload are made together. The bytes stream outside the lock (instances sharing a store may overshoot by
        // the uploads under way on the others).
        String visitor = command.appId() + "\n" + endUser.id();
        synchronized (pageUploads) {
            requireUploadsLeft(command.appId(), endUser, pageUploads.getOrDefault(visitor, 0));
            pageUploads.merge(visitor, 1, Integer::sum);
        }
        // An upload stops counting as under way in the same step as its record is made (else, between the two, it
        // counted twice and a visitor got one upload fewer); one that fails stops counting when it fails.
        AtomicBoolean counted = new AtomicBoolean(true);
        Runnable recorded = () -> {
            if (counted.getAndSet(false)) {
                pageUploads.computeIfPresent(visitor, (key, count) -> count > 1 ? count - 1 : null);
            }
        };
        try {
            return store(command, name, extension, category, max, endUser, recorded);
        } finally {
            synchronized (pageUploads) {
                recorded.run();
            }
        }
    }

    private UploadedFile store(UploadFileCommand command, String name, String extension, FileCategory category,
            long max, EndUser endUser) {
        return store(command, name, extension, category, max, endUser, () -> { });
    }

    /** @param recorded run under the page's lock right after a page's upload is recorded */
    private UploadedFile store(UploadFileCommand command, String name, String extension, FileCategory category,
            long max, EndUser endUser, Runnable recorded) {
        BlobStore.Stored stored;
        try {
            stored = blobs.put(command.content(), max);
        } catch (BlobStore.TooLargeException e) {
            throw new ApiException(ApiError.FILE_TOO_LARGE, "File size exceeded. " + category.wireName()
                    + " files may be at most " + max / (1024 * 1024) + " MB.");
        }
        UploadedFile file = new UploadedFile(ids.get(), command.appId(), endUser.id(), name, stored.size(),
                extension, command.mimeType(), stored.key(), now());
        try {
            if (command.fromPage()) {
                synchronized (pageUploads) {
                    requireBytesLeft(command.appId(), stored.size());
                    uploads.add(file);
                    recorded.run();
                }
            } else {
                uploads.add(file);
            }
        } catch (RuntimeException e) {
            blobs.delete(stored.key());
            throw e;
        }
        return file;
    }

    /**
     * A page's visitor uploads at most {@link PageUploadQuota#perVisitorPerHour()} files an hour: Dify's 429. Read
     * from the store, so the bound holds across restarts and instances.
     */
    private void requireUploadsLeft(String appId, EndUser visitor, int underWay) {
        if (pageQuota.perVisitorPerHour() > 0 && uploads.usedSince(appId, visitor.id(), now() - 3600).count()
                + underWay >= pageQuota.perVisitorPerHour()) {
            throw new ApiException(ApiError.TOO_MANY_REQUESTS, "Too many uploads: a web page's visitor may upload "
                    + pageQuota.perVisitorPerHour() + " files an hour. Please try again later.");
        }
    }

    /**
     * All the visitors of one app's page upload at most {@link PageUploadQuota#appMbPerDay()} a day (a visitor may
     * ask for a new web user at will): counted with the file just stored, which is let go when it does not fit.
     */
    private void requireBytesLeft(String appId, long size) {
        if (pageQuota.appMbPerDay() > 0
                && uploads.usedSince(appId, null, now() - 86_400).bytes() + size > pageQuota.appBytesPerDay()) {
            throw new ApiException(ApiError.TOO_MANY_REQUESTS, "Too many uploads: this app's web page takes "
                    + pageQuota.appMbPerDay() + " MB of files a day. Please try again later.");
        }
    }

    private long now() {
        return clock.instant().getEpochSecond();
    }
}
