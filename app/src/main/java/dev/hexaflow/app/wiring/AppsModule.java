package dev.hexaflow.app.wiring;

import dev.hexaflow.adapters.dsl.YamlWorkflowDslReader;
import dev.hexaflow.adapters.persistence.jdbi.JdbiAppKeyRepository;
import dev.hexaflow.adapters.persistence.jdbi.JdbiAppRepository;
import dev.hexaflow.adapters.persistence.jdbi.JdbiWorkflowVersionRepository;
import dev.hexaflow.app.adapters.HmacSigner;
import dev.hexaflow.application.apps.port.in.AuthenticateUseCase;
import dev.hexaflow.application.apps.port.in.DescribeAppUseCase;
import dev.hexaflow.application.apps.port.in.ExportDslUseCase;
import dev.hexaflow.application.apps.port.in.FindEndUserUseCase;
import dev.hexaflow.application.apps.port.in.ImportAppUseCase;
import dev.hexaflow.application.apps.port.in.ListAppsUseCase;
import dev.hexaflow.application.apps.port.in.ManageAppKeysUseCase;
import dev.hexaflow.application.apps.port.in.PublishWorkflowUseCase;
import dev.hexaflow.application.apps.port.in.UpdateSiteUseCase;
import dev.hexaflow.application.apps.port.in.WebAppUseCase;
import dev.hexaflow.application.apps.service.AuthenticateService;
import dev.hexaflow.application.apps.service.DescribeAppService;
import dev.hexaflow.application.apps.service.ExportDslService;
import dev.hexaflow.application.apps.service.FindEndUserService;
import dev.hexaflow.application.apps.service.ImportAppService;
import dev.hexaflow.application.apps.service.ListAppsService;
import dev.hexaflow.application.apps.service.ManageAppKeysService;
import dev.hexaflow.application.apps.service.Publications;
import dev.hexaflow.application.apps.service.PublishWorkflowService;
import dev.hexaflow.application.apps.service.UpdateSiteService;
import dev.hexaflow.application.apps.service.WebAppService;
import dev.hexaflow.application.apps.service.WebTokens;
import dev.hexaflow.application.apps.port.out.EndUserRepository;
import dev.hexaflow.application.apps.port.out.PublicationHook;
import dev.hexaflow.application.common.port.out.SecretGenerator;
import dev.hexaflow.domain.app.UploadLimits;
import dev.hexaflow.domain.id.TimeOrderedIds;
import dev.hexaflow.workflow.engine.WorkflowEngine;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.time.Clock;
import org.jdbi.v3.core.Jdbi;

/** The apps context: importing and publishing Dify DSL, the apps' keys, sites and web tokens, and authentication. */
public final class AppsModule {

    public static final String DEMO_DSL = "/demo/holiday-counter.yml";
    public static final String CHAT_DEMO_DSL = "/demo/holiday-chat.yml";

    public final ImportAppUseCase importApp;
    public final PublishWorkflowUseCase publish;
    public final ListAppsUseCase listApps;
    public final ManageAppKeysUseCase keys;
    public final UpdateSiteUseCase updateSite;
    public final AuthenticateUseCase authenticate;
    public final WebAppUseCase webApp;
    public final ExportDslUseCase exportDsl;
    public final DescribeAppUseCase describe;
    public final FindEndUserUseCase findEndUser;

    /**
     * @param published told of each workflow published (the triggers context keeps its triggers)
     * @param endUsers  the end users every context makes, found here by id
     */
    AppsModule(Jdbi jdbi, JdbiAppRepository apps, JdbiWorkflowVersionRepository versions, WorkflowEngine engine,
            SecretGenerator secrets, Clock clock, Instance instance, UploadLimits limits, PublicationHook published,
            EndUserRepository endUsers) {
        JdbiAppKeyRepository appKeys = new JdbiAppKeyRepository(jdbi);
        YamlWorkflowDslReader reader = new YamlWorkflowDslReader();
        Publications publications = new Publications(reader, engine, appKeys, secrets, clock, new TimeOrderedIds(),
                published);
        WebTokens webTokens = new WebTokens(HmacSigner.of("web_tokens", instance, jdbi), clock);
        this.importApp = new ImportAppService(publications, apps, versions);
        this.publish = new PublishWorkflowService(publications, apps, versions);
        this.listApps = new ListAppsService(apps, versions, publications);
        this.keys = new ManageAppKeysService(publications, apps, appKeys);
        this.updateSite = new UpdateSiteService(apps);
        this.authenticate = new AuthenticateService(appKeys, apps, webTokens, clock);
        this.webApp = new WebAppService(apps, webTokens);
        this.exportDsl = new ExportDslService(apps, versions);
        this.describe = new DescribeAppService(apps, versions, reader, limits);
        this.findEndUser = new FindEndUserService(endUsers);
    }

    /** Imports a demo app of the jar ({@link #DEMO_DSL}, {@link #CHAT_DEMO_DSL}), which reads this server's feed. */
    public ImportAppUseCase.ImportedApp importDemo(String resource) {
        try (InputStream in = AppsModule.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("the jar lacks " + resource);
            }
            return importApp.importApp(in.readAllBytes());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
