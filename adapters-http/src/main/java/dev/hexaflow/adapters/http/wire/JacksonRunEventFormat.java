package dev.hexaflow.adapters.http.wire;

import dev.hexaflow.adapters.http.wire.DifyWire;
import dev.hexaflow.application.runs.port.out.RunEventFormat;
import dev.hexaflow.domain.workflow.RunEvent;

/**
 * A workflow run's event as the JSON (Jackson, through {@link DifyWire}) its Dify stream frame carries: what a
 * streaming run writes after {@code data: }, so that a replay is that frame byte for byte. It lives in the
 * composition root: the HTTP adapter drives the application and implements none of its outbound ports, and the
 * wire format is the HTTP adapter's.
 */
public final class JacksonRunEventFormat implements RunEventFormat {

    @Override
    public String data(RunEvent event, String runId, String taskId) {
        // A chat run's conversation variables are for the conversation store; Dify's stream has no such event.
        if (event instanceof RunEvent.ConversationVariables) {
            return null;
        }
        return DifyWire.json(DifyWire.event(event, runId, taskId));
    }
}
