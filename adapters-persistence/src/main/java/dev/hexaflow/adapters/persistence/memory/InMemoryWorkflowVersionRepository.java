package dev.hexaflow.adapters.persistence.memory;

import dev.hexaflow.application.apps.port.out.WorkflowVersionRepository;
import dev.hexaflow.domain.app.WorkflowVersion;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/** Published versions by id, and each app's last added; versions are values, so they are kept as given. */
public final class InMemoryWorkflowVersionRepository implements WorkflowVersionRepository {

    private final Map<String, WorkflowVersion> byId = new HashMap<>();
    private final Map<String, WorkflowVersion> latestByApp = new HashMap<>();

    @Override
    public synchronized void add(WorkflowVersion version) {
        if (byId.putIfAbsent(version.id(), version) != null) {
            throw new IllegalStateException("a workflow version with id " + version.id() + " exists already");
        }
        latestByApp.put(version.appId(), version);
    }

    @Override
    public synchronized Optional<WorkflowVersion> find(String id) {
        return Optional.ofNullable(byId.get(id));
    }

    @Override
    public synchronized Optional<WorkflowVersion> latest(String appId) {
        return Optional.ofNullable(latestByApp.get(appId));
    }
}
