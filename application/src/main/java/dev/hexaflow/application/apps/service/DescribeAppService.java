package dev.hexaflow.application.apps.service;

import dev.hexaflow.application.apps.port.in.DescribeAppUseCase;
import dev.hexaflow.application.apps.port.out.AppRepository;
import dev.hexaflow.application.apps.port.out.WorkflowVersionRepository;
import dev.hexaflow.application.common.ApiError;
import dev.hexaflow.application.common.ApiException;
import dev.hexaflow.domain.app.App;
import dev.hexaflow.domain.app.UploadLimits;
import dev.hexaflow.domain.app.WorkflowVersion;
import dev.hexaflow.domain.workflow.Workflow;
import dev.hexaflow.workflow.port.out.WorkflowDslReader;
import java.nio.charset.StandardCharsets;

/** An app as kept, and the input form and features of its newest published workflow. */
public final class DescribeAppService implements DescribeAppUseCase {

    private final AppRepository apps;
    private final WorkflowVersionRepository versions;
    private final WorkflowDslReader reader;
    private final UploadLimits limits;

    public DescribeAppService(AppRepository apps, WorkflowVersionRepository versions, WorkflowDslReader reader,
            UploadLimits limits) {
        this.apps = apps;
        this.versions = versions;
        this.reader = reader;
        this.limits = limits;
    }

    @Override
    public App app(String appId) {
        return apps.find(appId).orElseThrow(() -> new ApiException(ApiError.NOT_FOUND, "App not found."));
    }

    @Override
    public AppParameters parameters(String appId) {
        WorkflowVersion version = versions.latest(app(appId).id()).orElseThrow(() -> new ApiException(
                ApiError.APP_UNAVAILABLE, "App unavailable, please check your app configurations."));
        Workflow workflow = reader.read(version.dsl().getBytes(StandardCharsets.UTF_8));
        return new AppParameters(workflow.features(), workflow.inputFields(), limits);
    }
}
