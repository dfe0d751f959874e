package dev.hexaflow.adapters.persistence.jdbi;

import dev.hexaflow.application.files.port.out.UploadRepository;
import dev.hexaflow.domain.app.UploadedFile;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.jdbi.v3.core.Jdbi;

/** Upload records in {@code upload_file}. */
public final class JdbiUploadRepository implements UploadRepository {

    private final Jdbi jdbi;

    public JdbiUploadRepository(Jdbi jdbi) {
        this.jdbi = jdbi;
    }

    @Override
    public void add(UploadedFile file) {
        jdbi.useHandle(handle -> handle.createUpdate("INSERT INTO upload_file (id, app_id, end_user_id, name, size, "
                + "extension, mime_type, blob_key, created_at) VALUES (:id, :app_id, :end_user_id, :name, :size, "
                + ":extension, :mime_type, :blob_key, :created_at)").bind("id", file.id()).bind("app_id", file.appId())
                .bind("end_user_id", file.endUserId()).bind("name", file.name()).bind("size", file.size())
                .bind("extension", file.extension()).bind("mime_type", file.mimeType())
                .bind("blob_key", file.blobKey()).bind("created_at", file.createdAt()).execute());
    }

    @Override
    public Set<String> blobKeys() {
        return jdbi.withHandle(handle -> handle.createQuery("SELECT blob_key FROM upload_file")
                .mapTo(String.class).collect(Collectors.toSet()));
    }

    @Override
    public Usage usedSince(String appId, String endUserId, long since) {
        String byUser = endUserId == null ? "" : " AND end_user_id = :end_user_id";
        return jdbi.withHandle(handle -> {
            var query = handle.createQuery("SELECT COUNT(*) AS n, COALESCE(SUM(size), 0) AS bytes FROM upload_file "
                    + "WHERE app_id = :app_id AND created_at >= :since" + byUser).bind("app_id", appId)
                    .bind("since", since);
            if (endUserId != null) {
                query.bind("end_user_id", endUserId);
            }
            return query.map((rs, ctx) -> new Usage(rs.getLong("n"), rs.getLong("bytes"))).one();
        });
    }

    @Override
    public Optional<UploadedFile> find(String id) {
        return jdbi.withHandle(handle -> handle.createQuery("SELECT * FROM upload_file WHERE id = :id").bind("id", id)
                .map((rs, ctx) -> new UploadedFile(rs.getString("id"), rs.getString("app_id"),
                        rs.getString("end_user_id"), rs.getString("name"), rs.getLong("size"),
                        rs.getString("extension"), rs.getString("mime_type"), rs.getString("blob_key"),
                        rs.getLong("created_at"))).findOne());
    }
}
