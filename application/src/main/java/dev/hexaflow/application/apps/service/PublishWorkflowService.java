package dev.hexaflow.application.apps.service;

import dev.hexaflow.application.apps.port.in.PublishWorkflowUseCase;
import dev.hexaflow.application.apps.port.out.AppRepository;
import dev.hexaflow.application.apps.port.out.WorkflowVersionRepository;
import dev.hexaflow.application.common.ApiError;
import dev.hexaflow.application.common.ApiException;
import dev.hexaflow.domain.app.App;
import dev.hexaflow.domain.app.WorkflowVersion;
import dev.hexaflow.domain.workflow.AppInfo;
import dev.hexaflow.domain.workflow.Workflow;
import java.util.Optional;

/** A changed file becomes a new version; the file of the current version again changes nothing. */
public final class PublishWorkflowService implements PublishWorkflowUseCase {

    private final Publications publications;
    private final AppRepository apps;
    private final WorkflowVersionRepository versions;

    public PublishWorkflowService(Publications publications, AppRepository apps, WorkflowVersionRepository versions) {
        this.publications = publications;
        this.apps = apps;
        this.versions = versions;
    }

    @Override
    public Published publish(String appId, byte[] dsl) {
        App app = apps.find(appId).orElseThrow(() -> new ApiException(ApiError.NOT_FOUND, "App not found."));
        Publications.Checked checked = publications.checked(dsl);
        Workflow workflow = checked.workflow();
        refuseModeChange(app, workflow.app());
        WorkflowVersion candidate = publications.version(appId, dsl);
        Optional<WorkflowVersion> current = versions.latest(appId);
        if (current.isPresent() && current.get().dslHash().equals(candidate.dslHash())) {
            return new Published(current.get().id(), current.get().version(), false, checked.warnings());
        }
        versions.add(candidate);
        publications.published(appId, workflow);
        AppInfo info = workflow.app();
        apps.update(app.describedAs(info.name(), info.description(), ImportAppService.iconType(info), info.icon(),
                info.iconBackground()));
        return new Published(candidate.id(), candidate.version(), true, checked.warnings());
    }

    /**
     * An app keeps its mode: its routes, page, conversations and keys' callers rely on it. Dify overwrites only
     * workflow and advanced-chat apps and then keeps the app's mode whatever the file says; here a file of
     * another mode is refused rather than run in the wrong one.
     */
    private static void refuseModeChange(App app, AppInfo file) {
        String fileMode = file.mode().isBlank() ? AppInfo.WORKFLOW_MODE : file.mode();
        if (!fileMode.equals(app.mode())) {
            throw new ApiException(ApiError.INVALID_PARAM, "Only workflow or advanced chat apps can be overwritten,"
                    + " and only by a file of their own mode: the app's mode is '" + app.mode() + "', the file's '"
                    + fileMode + "'. Import the file as a new app.");
        }
    }
}
