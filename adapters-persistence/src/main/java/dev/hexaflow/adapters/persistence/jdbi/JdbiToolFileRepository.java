package dev.hexaflow.adapters.persistence.jdbi;

import dev.hexaflow.application.tools.port.out.ToolFileRepository;
import dev.hexaflow.domain.tool.ToolFile;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.jdbi.v3.core.Jdbi;

/** Tool file records in {@code tool_file}. */
public final class JdbiToolFileRepository implements ToolFileRepository {

    private final Jdbi jdbi;

    public JdbiToolFileRepository(Jdbi jdbi) {
        this.jdbi = jdbi;
    }

    @Override
    public void save(ToolFile file) {
        jdbi.useHandle(handle -> handle.createUpdate(SqlDialect.of(jdbi).upsert("tool_file", "id", "id, blob_key, "
                + "name, extension, mime_type, size, created_at", ":id, :blob_key, :name, :extension, :mime_type, "
                + ":size, :created_at")).bind("id", file.id()).bind("blob_key", file.blobKey()).bind("name", file.name())
                .bind("extension", file.extension()).bind("mime_type", file.mimeType()).bind("size", file.size())
                .bind("created_at", file.createdAt()).execute());
    }

    @Override
    public Optional<ToolFile> find(String id) {
        return jdbi.withHandle(handle -> handle.createQuery("SELECT * FROM tool_file WHERE id = :id").bind("id", id)
                .map((rs, ctx) -> new ToolFile(rs.getString("id"), rs.getString("blob_key"), rs.getString("name"),
                        rs.getString("extension"), rs.getString("mime_type"), rs.getLong("size"),
                        rs.getLong("created_at"))).findOne());
    }

    @Override
    public Set<String> blobKeys() {
        return jdbi.withHandle(handle -> handle.createQuery("SELECT blob_key FROM tool_file")
                .mapTo(String.class).collect(Collectors.toSet()));
    }
}
