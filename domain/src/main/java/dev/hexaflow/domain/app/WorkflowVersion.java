package dev.hexaflow.domain.app;

import dev.hexaflow.domain.secret.SecretHash;

/**
 * A published version of an app's workflow: the DSL text as imported, never changed afterwards. Runs name the
 * version they ran.
 *
 * @param version   Dify's version label: the publication time, as "2024-08-01 12:17:09.771832"
 * @param dslHash   the SHA-256 of the DSL text, which tells a changed import from the same file again
 * @param createdAt Unix seconds
 */
public record WorkflowVersion(String id, String appId, String version, String dsl, SecretHash dslHash,
        long createdAt) {

    public WorkflowVersion {
        if (id == null || appId == null || dsl == null || dslHash == null) {
            throw new IllegalArgumentException("a workflow version needs its id, app, DSL and hash");
        }
    }
}
