package dev.hexaflow.adapters.http.serviceapi.datasets;

import dev.hexaflow.adapters.http.support.JsonResponses;
import dev.hexaflow.application.knowledge.port.in.KnowledgeException;
import io.javalin.http.Context;

/** A knowledge use case's refusal in Dify's error body, for the Knowledge API and the operator's routes alike. */
public final class KnowledgeErrors {

    private KnowledgeErrors() {
    }

    public static void send(Context ctx, KnowledgeException e) {
        switch (e.reason()) {
            case NOT_FOUND -> JsonResponses.error(ctx, 404, "not_found", e.getMessage());
            case CONFLICT -> JsonResponses.error(ctx, 409, "dataset_name_duplicate", e.getMessage());
            case INVALID -> JsonResponses.error(ctx, 400, "invalid_param", e.getMessage());
            case UNAUTHORIZED -> JsonResponses.error(ctx, 401, "unauthorized", e.getMessage());
        }
    }
}
