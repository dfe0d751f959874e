package dev.hexaflow.application.apps.service;

import dev.hexaflow.application.apps.port.in.ImportAppUseCase;
import dev.hexaflow.application.apps.port.out.AppRepository;
import dev.hexaflow.application.apps.port.out.WorkflowVersionRepository;
import dev.hexaflow.domain.app.App;
import dev.hexaflow.domain.app.SiteSettings;
import dev.hexaflow.domain.app.WorkflowVersion;
import dev.hexaflow.domain.workflow.AppInfo;
import dev.hexaflow.domain.workflow.Workflow;
import java.util.List;

/** Checks the file whole before keeping anything; then the app, its first version and its first key. */
public final class ImportAppService implements ImportAppUseCase {

    private final Publications publications;
    private final AppRepository apps;
    private final WorkflowVersionRepository versions;

    public ImportAppService(Publications publications, AppRepository apps, WorkflowVersionRepository versions) {
        this.publications = publications;
        this.apps = apps;
        this.versions = versions;
    }

    @Override
    public ImportedApp importApp(byte[] dsl) {
        Publications.Checked checked = publications.checked(dsl);
        Workflow workflow = checked.workflow();
        AppInfo info = workflow.app();
        String appId = publications.newId();
        SiteSettings site = new SiteSettings(info.name(), iconType(info), info.icon(), info.iconBackground(), null,
                info.description(), null, null, null, null, true, info.useIconAsAnswerIcon());
        WorkflowVersion version = publications.version(appId, dsl);
        String siteCode = publications.newSiteCode();
        apps.add(new App(appId, info.name(), info.description(), info.mode(), iconType(info), info.icon(),
                info.iconBackground(), List.of(), site, siteCode, true, publications.now()));
        versions.add(version);
        publications.published(appId, workflow);
        return new ImportedApp(appId, version.id(), publications.issueKey(appId), siteCode, checked.warnings());
    }

    static String iconType(AppInfo info) {
        return "image".equals(info.iconType()) ? "image" : "emoji";
    }
}
