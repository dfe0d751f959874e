package dev.hexaflow.application.app.port.in;

import java.util.List;

/** Lists every app with its current workflow version. */
public interface ListAppsUseCase {

    List<AppSummary> list();

    record AppSummary(String appId, String name, String mode, String workflowId, String version, String siteCode,
            boolean siteEnabled, long createdAt) {
    }
}
