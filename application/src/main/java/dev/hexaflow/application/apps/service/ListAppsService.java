package dev.hexaflow.application.apps.service;

import dev.hexaflow.application.apps.port.in.ListAppsUseCase;
import dev.hexaflow.application.apps.port.out.AppRepository;
import dev.hexaflow.application.apps.port.out.WorkflowVersionRepository;
import dev.hexaflow.domain.app.App;
import dev.hexaflow.domain.app.WorkflowVersion;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Each app with its newest version. */
public final class ListAppsService implements ListAppsUseCase {

    private final AppRepository apps;
    private final WorkflowVersionRepository versions;
    private final Publications publications;

    /** @param publications checks each app's newest workflow as a publish does, for what it waits on now */
    public ListAppsService(AppRepository apps, WorkflowVersionRepository versions, Publications publications) {
        this.apps = apps;
        this.versions = versions;
        this.publications = publications;
    }

    @Override
    public List<AppSummary> list() {
        List<AppSummary> summaries = new ArrayList<>();
        for (App app : apps.list()) {
            Optional<WorkflowVersion> latest = versions.latest(app.id());
            summaries.add(new AppSummary(app.id(), app.name(), app.mode(), latest.map(WorkflowVersion::id).orElse(null),
                    latest.map(WorkflowVersion::version).orElse(null), app.siteCode(), app.siteEnabled(),
                    app.createdAt(), latest.map(this::warnings).orElse(List.of())));
        }
        return summaries;
    }

    /** Bindings change after an import: what a workflow waits on is asked anew at each listing. */
    private List<String> warnings(WorkflowVersion version) {
        try {
            return publications.checked(version.dsl().getBytes(StandardCharsets.UTF_8)).warnings();
        } catch (RuntimeException e) {
            // A version kept by an older release that this one's checks refuse: it says so rather than hiding it.
            return List.of("The published workflow no longer passes this server's checks: " + e.getMessage());
        }
    }
}
