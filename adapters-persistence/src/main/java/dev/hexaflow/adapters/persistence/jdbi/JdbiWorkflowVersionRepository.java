package dev.hexaflow.adapters.persistence.jdbi;

import dev.hexaflow.application.apps.port.out.WorkflowVersionRepository;
import dev.hexaflow.domain.app.WorkflowVersion;
import dev.hexaflow.domain.secret.SecretHash;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Optional;
import org.jdbi.v3.core.Jdbi;

/**
 * Published versions in {@code workflow_version}, newest by insertion order. Versions never change, so those read
 * lately, and each app's newest, are kept in memory as well.
 */
public final class JdbiWorkflowVersionRepository implements WorkflowVersionRepository {

    private final Jdbi jdbi;
    private final ReadCache<String, WorkflowVersion> byId;
    private final ReadCache<String, WorkflowVersion> latestByApp;

    public JdbiWorkflowVersionRepository(Jdbi jdbi) {
        this.jdbi = jdbi;
        this.byId = new ReadCache<>(jdbi, "workflow_version", 1_000);
        this.latestByApp = new ReadCache<>(jdbi, "workflow_version_latest", 10_000);
    }

    @Override
    public void add(WorkflowVersion version) {
        jdbi.useHandle(handle -> handle.createUpdate("INSERT INTO workflow_version (id, app_id, version, dsl, "
                + "dsl_hash, created_at) VALUES (:id, :app_id, :version, :dsl, :dsl_hash, :created_at)")
                .bind("id", version.id()).bind("app_id", version.appId()).bind("version", version.version())
                .bind("dsl", version.dsl()).bind("dsl_hash", version.dslHash().hex())
                .bind("created_at", version.createdAt()).execute());
        latestByApp.changed(version.appId(), version);
    }

    @Override
    public Optional<WorkflowVersion> find(String id) {
        return byId.get(id, this::read);
    }

    private Optional<WorkflowVersion> read(String id) {
        return jdbi.withHandle(handle -> handle.createQuery("SELECT * FROM workflow_version WHERE id = :id")
                .bind("id", id).map((rs, ctx) -> read(rs)).findOne());
    }

    @Override
    public Optional<WorkflowVersion> latest(String appId) {
        return latestByApp.get(appId, this::readLatest);
    }

    private Optional<WorkflowVersion> readLatest(String appId) {
        return jdbi.withHandle(handle -> handle.createQuery("SELECT * FROM workflow_version WHERE app_id = :app_id "
                + "ORDER BY seq DESC LIMIT 1").bind("app_id", appId).map((rs, ctx) -> read(rs)).findOne());
    }

    private static WorkflowVersion read(ResultSet rs) throws SQLException {
        return new WorkflowVersion(rs.getString("id"), rs.getString("app_id"), rs.getString("version"),
                rs.getString("dsl"), new SecretHash(rs.getString("dsl_hash")), rs.getLong("created_at"));
    }
}
