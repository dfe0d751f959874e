package dev.hexaflow.adapters.persistence.memory;

import dev.hexaflow.application.files.port.out.UploadRepository;
import dev.hexaflow.domain.app.UploadedFile;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.stream.Collectors;

/** Upload records by id; their bytes are in a {@link dev.hexaflow.application.common.port.out.BlobStore}. */
public final class InMemoryUploadRepository implements UploadRepository {

    private final ConcurrentMap<String, UploadedFile> uploads = new ConcurrentHashMap<>();

    @Override
    public void add(UploadedFile file) {
        if (uploads.putIfAbsent(file.id(), file) != null) {
            throw new IllegalStateException("an upload with id " + file.id() + " exists already");
        }
    }

    @Override
    public Optional<UploadedFile> find(String id) {
        return Optional.ofNullable(uploads.get(id));
    }

    @Override
    public Usage usedSince(String appId, String endUserId, long since) {
        long count = 0;
        long bytes = 0;
        for (UploadedFile file : uploads.values()) {
            if (file.appId().equals(appId) && file.createdAt() >= since
                    && (endUserId == null || file.endUserId().equals(endUserId))) {
                count++;
                bytes += file.size();
            }
        }
        return new Usage(count, bytes);
    }

    @Override
    public Set<String> blobKeys() {
        return uploads.values().stream().map(UploadedFile::blobKey).collect(Collectors.toUnmodifiableSet());
    }
}
