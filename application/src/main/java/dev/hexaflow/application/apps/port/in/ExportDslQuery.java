package dev.hexaflow.application.apps.port.in;

import java.util.Objects;
import java.util.Optional;

/** The DSL of app {@code appId}: its newest published version, or the version {@code workflowId}. */
public record ExportDslQuery(String appId, Optional<String> workflowId) {

    public ExportDslQuery {
        Objects.requireNonNull(appId, "appId");
        Objects.requireNonNull(workflowId, "workflowId");
        workflowId = workflowId.filter(id -> !id.isBlank());
    }

    public static ExportDslQuery newest(String appId) {
        return new ExportDslQuery(appId, Optional.empty());
    }
}
