package dev.hexaflow.application.apps.port.in;

import dev.hexaflow.application.common.ApiException;
import java.util.List;

/** Publishes a DSL file as an app's new workflow version; the same file again publishes nothing new. */
public interface PublishWorkflowUseCase {

    /**
     * @throws ApiException NOT_FOUND for an unknown app
     * @throws dev.hexaflow.domain.workflow.InvalidWorkflowException listing every problem; nothing is kept
     */
    Published publish(String appId, byte[] dsl);

    /** The version runs now use, whether this call made it, and the file's warnings (as the import's). */
    record Published(String workflowId, String version, boolean isNew, List<String> warnings) {
        public Published {
            warnings = List.copyOf(warnings);
        }
    }
}
