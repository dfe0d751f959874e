package dev.hexaflow.adapters.persistence;

import dev.hexaflow.domain.app.App;
import dev.hexaflow.domain.app.EndUser;
import dev.hexaflow.domain.app.SiteSettings;
import dev.hexaflow.domain.app.UploadedFile;
import dev.hexaflow.domain.app.WorkflowVersion;
import dev.hexaflow.domain.secret.SecretHash;
import dev.hexaflow.domain.workflow.ExecutionMetadata;
import dev.hexaflow.domain.workflow.Node;
import dev.hexaflow.domain.workflow.NodeExecution;
import dev.hexaflow.domain.workflow.NodeType;
import java.util.List;
import java.util.Map;

/**
 * Small builders of what the workflow ports keep, with safe defaults, and the rows the contracts take as given:
 * apps {@link #APP} and {@link #OTHER_APP}, and {@link #APP}'s end user {@link #UPLOADER} (a store whose rows
 * refer to their app and user, as the Jdbi one's do, makes them before each test).
 */
final class WorkflowFixtures {

    static final String APP = "a1";
    static final String OTHER_APP = "a2";
    static final String UPLOADER = "u1";

    static final SiteSettings SITE = new SiteSettings("Title", "emoji", "🤖", "#FFF", null, "desc", "©",
            "https://p", "careful", "fr-FR", true, false);

    private WorkflowFixtures() {
    }

    static App app(String id, String siteCode, long createdAt) {
        return new App(id, "App " + id, "about " + id, "workflow", "emoji", "🤖", "#FFF", List.of("x"), SITE,
                siteCode, true, createdAt);
    }

    static EndUser uploader() {
        return new EndUser(UPLOADER, APP, "uploader", 1);
    }

    static WorkflowVersion version(String id, String appId) {
        return new WorkflowVersion(id, appId, "2026-01-01 00:00:00.000000", "dsl: " + id, SecretHash.of(id), 1);
    }

    static UploadedFile upload(String id, String blobKey) {
        return new UploadedFile(id, APP, UPLOADER, id + ".pdf", 42, "pdf", "application/pdf", blobKey, 7);
    }

    static NodeExecution nodeStarted(String id, String nodeId, int index, long at) {
        return NodeExecution.started(id, Node.of(nodeId, NodeType.CODE, Map.of("title", "Node " + nodeId)), index,
                null, ExecutionMetadata.NONE, at);
    }
}
