package dev.hexaflow.application.apps.port.out;

import dev.hexaflow.domain.app.WorkflowVersion;
import java.util.Optional;

/** Keeps the published workflow versions of apps; a version is never changed once added. */
public interface WorkflowVersionRepository {

    void add(WorkflowVersion version);

    Optional<WorkflowVersion> find(String id);

    /** The app's newest version. */
    Optional<WorkflowVersion> latest(String appId);
}
