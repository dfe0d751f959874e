package dev.hexaflow.adapters.http.wire;

import dev.hexaflow.adapters.http.serviceapi.workflow.RunRoutes;
import dev.hexaflow.application.webhooks.port.out.RunDetailRenderer;
import dev.hexaflow.domain.workflow.WorkflowRun;

/**
 * The run detail of the Service API's own mapping: the HTTP adapter drives the application and plugs into no
 * outbound port, so the root lends its wire shape to the deliverer here.
 */
public final class JacksonRunDetailRenderer implements RunDetailRenderer {

    @Override
    public byte[] render(WorkflowRun run) {
        return RunRoutes.detailJson(run);
    }
}
