package dev.hexaflow.application.apps.port.in;

import dev.hexaflow.application.common.ApiException;

/** Answers an app's workflow DSL as it was imported, byte for byte, so that it can be imported elsewhere. */
public interface ExportDslUseCase {

    /** @throws ApiException NOT_FOUND for an unknown app, an app with no version, or a version of another app */
    ExportedDsl export(ExportDslQuery query);

    /** The DSL text of one published version. */
    record ExportedDsl(String appId, String workflowId, String version, String dsl) {
    }
}
