package dev.hexaflow.application.apps.port.in;

import java.util.List;

/** Makes an app from a DSL file, publishes its workflow and issues its first key. */
public interface ImportAppUseCase {

    /** @throws dev.hexaflow.domain.workflow.InvalidWorkflowException listing every problem; nothing is kept */
    ImportedApp importApp(byte[] dsl);

    /**
     * The new app's id, its published workflow's id, its first key (shown this once), its page's code, and what the
     * operator should do before it runs whole (a sentence for each tool nothing runs yet).
     */
    record ImportedApp(String appId, String workflowId, String apiKey, String siteCode, List<String> warnings) {
        public ImportedApp {
            warnings = List.copyOf(warnings);
        }
    }
}
