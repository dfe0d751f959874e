package dev.hexaflow.application.app.service;

import dev.hexaflow.application.app.port.in.ListAppsUseCase;
import dev.hexaflow.application.app.port.out.AppRepository;
import dev.hexaflow.application.app.port.out.WorkflowVersionRepository;
import dev.hexaflow.domain.app.App;
import dev.hexaflow.domain.app.WorkflowVersion;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Each app with its newest version. */
public final class ListAppsService implements ListAppsUseCase {

    private final AppRepository apps;
    private final WorkflowVersionRepository versions;

    public ListAppsService(AppRepository apps, WorkflowVersionRepository versions) {
        this.apps = apps;
        this.versions = versions;
    }

    @Override
    public List<AppSummary> list() {
        List<AppSummary> summaries = new ArrayList<>();
        for (App app : apps.list()) {
            Optional<WorkflowVersion> latest = versions.latest(app.id());
            summaries.add(new AppSummary(app.id(), app.name(), app.mode(), latest.map(WorkflowVersion::id).orElse(null),
                    latest.map(WorkflowVersion::version).orElse(null), app.siteCode(), app.siteEnabled(),
                    app.createdAt()));
        }
        return summaries;
    }
}
