package dev.hexaflow.adapters.http.workflow;

import dev.hexaflow.application.webhook.port.out.RunDetailRenderer;
import dev.hexaflow.domain.workflow.WorkflowRun;
import java.nio.charset.StandardCharsets;

/** A run's detail as {@code GET /v1/workflows/run/{id}} answers it, byte for byte: the same mapping and writer. */
public final class JacksonRunDetailRenderer implements RunDetailRenderer {

    @Override
    public byte[] render(WorkflowRun run) {
        return DifyWire.json(RunRoutes.RunDetail.of(run)).getBytes(StandardCharsets.UTF_8);
    }
}
