package dev.hexaflow.application.app.port.in;

/** Makes an app from a DSL file, publishes its workflow and issues its first key. */
public interface ImportAppUseCase {

    /** @throws dev.hexaflow.domain.workflow.InvalidWorkflowException listing every problem; nothing is kept */
    ImportedApp importApp(byte[] dsl);

    /** The new app's id, its published workflow's id, its first key (shown this once) and its page's code. */
    record ImportedApp(String appId, String workflowId, String apiKey, String siteCode) {
    }
}
