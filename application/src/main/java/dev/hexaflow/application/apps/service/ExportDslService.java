package dev.hexaflow.application.apps.service;

import dev.hexaflow.application.apps.port.in.ExportDslQuery;
import dev.hexaflow.application.apps.port.in.ExportDslUseCase;
import dev.hexaflow.application.apps.port.out.AppRepository;
import dev.hexaflow.application.apps.port.out.WorkflowVersionRepository;
import dev.hexaflow.application.common.ApiError;
import dev.hexaflow.application.common.ApiException;
import dev.hexaflow.domain.app.WorkflowVersion;

/**
 * The DSL kept with each published version is the text the import was given, never one written back from the
 * engine's model: what the engine does not use (positions, a Dify console's own fields) leaves as it came.
 */
public final class ExportDslService implements ExportDslUseCase {

    private final AppRepository apps;
    private final WorkflowVersionRepository versions;

    public ExportDslService(AppRepository apps, WorkflowVersionRepository versions) {
        this.apps = apps;
        this.versions = versions;
    }

    @Override
    public ExportedDsl export(ExportDslQuery query) {
        apps.find(query.appId()).orElseThrow(() -> new ApiException(ApiError.NOT_FOUND, "App not found."));
        WorkflowVersion version = query.workflowId()
                .map(id -> versions.find(id).filter(found -> found.appId().equals(query.appId())).orElseThrow(
                        () -> new ApiException(ApiError.NOT_FOUND, "Workflow version not found for this app.")))
                .orElseGet(() -> versions.latest(query.appId()).orElseThrow(
                        () -> new ApiException(ApiError.NOT_FOUND, "The app has no published workflow.")));
        return new ExportedDsl(version.appId(), version.id(), version.version(), version.dsl());
    }
}
