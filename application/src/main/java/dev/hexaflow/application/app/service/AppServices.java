package dev.hexaflow.application.app.service;

import dev.hexaflow.application.app.port.in.AuthenticateUseCase;
import dev.hexaflow.application.app.port.in.DescribeAppUseCase;
import dev.hexaflow.application.app.port.in.DrainRunsUseCase;
import dev.hexaflow.application.app.port.in.ExportDslUseCase;
import dev.hexaflow.application.app.port.in.GetRunUseCase;
import dev.hexaflow.application.app.port.in.ImportAppUseCase;
import dev.hexaflow.application.app.port.in.ListAppsUseCase;
import dev.hexaflow.application.app.port.in.ListRunLogsUseCase;
import dev.hexaflow.application.app.port.in.ManageAppKeysUseCase;
import dev.hexaflow.application.app.port.in.PublishWorkflowUseCase;
import dev.hexaflow.application.app.port.in.RunWorkflowUseCase;
import dev.hexaflow.application.app.port.in.StopTaskUseCase;
import dev.hexaflow.application.app.port.in.UpdateSiteUseCase;
import dev.hexaflow.application.app.port.in.UploadFileUseCase;
import dev.hexaflow.application.app.port.in.WebAppUseCase;
import dev.hexaflow.application.app.port.out.AppKeyRepository;
import dev.hexaflow.application.app.port.out.AppRepository;
import dev.hexaflow.application.app.port.out.BlobStore;
import dev.hexaflow.application.app.port.out.EndUserRepository;
import dev.hexaflow.application.app.port.out.RunRepository;
import dev.hexaflow.application.app.port.out.UploadRepository;
import dev.hexaflow.application.app.port.out.WorkflowVersionRepository;
import dev.hexaflow.application.app.port.out.StorageHealth;
import dev.hexaflow.application.common.SecretGenerator;
import dev.hexaflow.application.common.Signer;
import dev.hexaflow.application.workflow.engine.WorkflowEngine;
import dev.hexaflow.application.workflow.port.out.WorkflowDslReader;
import dev.hexaflow.domain.app.UploadLimits;
import java.time.Clock;
import java.util.function.Supplier;

/** The workflow service's use cases, wired on the given ports: what the composition root hands to adapters. */
public final class AppServices {

    /** The ports the services need. */
    public record Ports(AppRepository apps, WorkflowVersionRepository versions, AppKeyRepository keys,
            EndUserRepository endUsers, UploadRepository uploads, BlobStore blobs, RunRepository runs,
            WorkflowDslReader reader, SecretGenerator secrets, Signer signer) {
    }

    public final ImportAppUseCase importApp;
    public final PublishWorkflowUseCase publish;
    public final ListAppsUseCase listApps;
    public final ManageAppKeysUseCase keys;
    public final UpdateSiteUseCase updateSite;
    public final AuthenticateUseCase authenticate;
    public final WebAppUseCase webApp;
    public final RunWorkflowUseCase run;
    public final StopTaskUseCase stop;
    public final GetRunUseCase getRun;
    public final ListRunLogsUseCase logs;
    public final UploadFileUseCase upload;
    public final DescribeAppUseCase describe;
    public final DrainRunsUseCase drain;
    public final ExportDslUseCase exportDsl;

    /** @param maxRunsPerApp runs in flight per app before 429; 0 for no limit */
    public AppServices(Ports ports, WorkflowEngine engine, UploadLimits limits, int maxRunsPerApp, Clock clock,
            Supplier<String> ids) {
        this(ports, engine, limits, maxRunsPerApp, clock, ids, StorageHealth.UNWATCHED);
    }

    /** @param storage refuses new runs and uploads while the store cannot keep them */
    public AppServices(Ports ports, WorkflowEngine engine, UploadLimits limits, int maxRunsPerApp, Clock clock,
            Supplier<String> ids, StorageHealth storage) {
        Publications publications = new Publications(ports.reader(), engine, ports.keys(), ports.secrets(), clock, ids);
        TaskRegistry tasks = new TaskRegistry();
        this.importApp = new ImportAppService(publications, ports.apps(), ports.versions());
        this.publish = new PublishWorkflowService(publications, ports.apps(), ports.versions());
        this.listApps = new ListAppsService(ports.apps(), ports.versions());
        this.keys = new ManageAppKeysService(publications, ports.apps(), ports.keys());
        this.updateSite = new UpdateSiteService(ports.apps());
        WebTokens webTokens = new WebTokens(ports.signer(), clock);
        this.authenticate = new AuthenticateService(ports.keys(), ports.apps(), webTokens);
        this.webApp = new WebAppService(ports.apps(), webTokens);
        this.run = new RunWorkflowService(ports.apps(), ports.versions(), ports.endUsers(), ports.uploads(),
                ports.runs(), ports.reader(), engine, tasks, maxRunsPerApp, clock, ids, storage);
        this.stop = new StopTaskService(tasks);
        this.drain = new DrainRunsService(tasks);
        this.getRun = new GetRunService(ports.runs());
        this.logs = new ListRunLogsService(ports.runs());
        this.upload = new UploadFileService(ports.uploads(), ports.endUsers(), ports.blobs(), limits, clock, ids,
                storage);
        this.exportDsl = new ExportDslService(ports.apps(), ports.versions());
        this.describe = new DescribeAppService(ports.apps(), ports.versions(), ports.reader(), limits);
    }
}
