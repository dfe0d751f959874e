package dev.hexaflow.application.apps.port.in;

import java.util.List;

/** Lists every app with its current workflow version. */
public interface ListAppsUseCase {

    List<AppSummary> list();

    /**
     * @param warnings what the app's newest workflow waits on now, one sentence each (a tool neither built in nor
     *                 bound, with the command that binds it); empty when it waits on nothing
     */
    record AppSummary(String appId, String name, String mode, String workflowId, String version, String siteCode,
            boolean siteEnabled, long createdAt, List<String> warnings) {
    }
}
