package dev.hexaflow.adapters.http.serviceapi.chat;

import static dev.hexaflow.adapters.http.serviceapi.ServiceApiAuthentication.appId;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import dev.hexaflow.adapters.http.server.RequestLimits;
import dev.hexaflow.adapters.http.server.RouteGroup;
import dev.hexaflow.adapters.http.serviceapi.ServiceApiAuthentication.Access;
import dev.hexaflow.adapters.http.serviceapi.ServiceApiBodies;
import dev.hexaflow.adapters.http.support.JsonRequestBodies;
import dev.hexaflow.adapters.http.support.QueryNumbers;
import dev.hexaflow.application.annotations.port.in.AnnotationReplyUseCase.ReplyActionCommand;
import dev.hexaflow.application.annotations.port.in.AnnotationReplyUseCase.ReplyJob;
import dev.hexaflow.application.annotations.port.in.AnnotationReplyUseCase;
import dev.hexaflow.application.annotations.port.in.ManageAnnotationsUseCase.AnnotationCommand;
import dev.hexaflow.application.annotations.port.in.ManageAnnotationsUseCase.AnnotationPage;
import dev.hexaflow.application.annotations.port.in.ManageAnnotationsUseCase.ListAnnotationsQuery;
import dev.hexaflow.application.annotations.port.in.ManageAnnotationsUseCase;
import dev.hexaflow.application.common.ApiError;
import dev.hexaflow.application.common.ApiException;
import dev.hexaflow.domain.annotation.Annotation;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import java.util.List;
import java.util.Map;

/**
 * Dify's annotation Service API for a chat app: its annotations listed (a page, a keyword), added, changed and
 * removed, and its annotation reply switched on or off with the status of that job. An app's key alone may call
 * them: a web page's token is refused.
 */
public final class AnnotationRoutes implements RouteGroup {

    private final JsonRequestBodies bodies;
    private final ManageAnnotationsUseCase annotations;
    private final AnnotationReplyUseCase reply;

    public AnnotationRoutes(ManageAnnotationsUseCase annotations, AnnotationReplyUseCase reply,
            RequestLimits limits) {
        this.bodies = new JsonRequestBodies(limits);
        this.annotations = annotations;
        this.reply = reply;
    }

    @Override
    public void addTo(RoutesConfig routes) {
        routes.post("/v1/apps/annotation-reply/{action}", this::act, Access.MANAGE_ANNOTATIONS);
        routes.get("/v1/apps/annotation-reply/{action}/status/{job_id}", this::status, Access.MANAGE_ANNOTATIONS);
        routes.get("/v1/apps/annotations", this::list, Access.MANAGE_ANNOTATIONS);
        routes.post("/v1/apps/annotations", this::create, Access.MANAGE_ANNOTATIONS);
        routes.put("/v1/apps/annotations/{annotation_id}", this::update, Access.MANAGE_ANNOTATIONS);
        routes.delete("/v1/apps/annotations/{annotation_id}", this::delete, Access.MANAGE_ANNOTATIONS);
    }

    private void act(Context ctx) {
        Map<String, Object> body = bodies.object(ctx);
        Object threshold = body.get("score_threshold");
        if (threshold != null && !(threshold instanceof Number)) {
            throw new ApiException(ApiError.INVALID_PARAM, "score_threshold must be a number");
        }
        ReplyJob job = reply.act(new ReplyActionCommand(appId(ctx), ctx.pathParam("action"),
                threshold == null ? null : ((Number) threshold).doubleValue(),
                text(body, "embedding_provider_name"), text(body, "embedding_model_name")));
        ServiceApiBodies.json(ctx, 200, new Job(job.jobId(), job.jobStatus()));
    }

    private void status(Context ctx) {
        ReplyJob job = reply.status(appId(ctx), ctx.pathParam("action"), ctx.pathParam("job_id"));
        ServiceApiBodies.json(ctx, 200, new JobStatus(job.jobId(), job.jobStatus(), job.errorMsg()));
    }

    private void list(Context ctx) {
        AnnotationPage page = annotations.list(new ListAnnotationsQuery(appId(ctx),
                QueryNumbers.number(ctx, "page", 1), QueryNumbers.number(ctx, "limit", 20),
                ctx.queryParam("keyword")));
        ServiceApiBodies.json(ctx, 200, new Page(page.data().stream().map(AnnotationRoutes::shown).toList(),
                page.hasMore(), page.limit(), page.total(), page.page()));
    }

    private void create(Context ctx) {
        Map<String, Object> body = bodies.object(ctx);
        ServiceApiBodies.json(ctx, 201, shown(annotations.create(new AnnotationCommand(appId(ctx),
                text(body, "question"), text(body, "answer")))));
    }

    private void update(Context ctx) {
        Map<String, Object> body = bodies.object(ctx);
        ServiceApiBodies.json(ctx, 200, shown(annotations.update(ctx.pathParam("annotation_id"),
                new AnnotationCommand(appId(ctx), text(body, "question"), text(body, "answer")))));
    }

    private void delete(Context ctx) {
        annotations.delete(appId(ctx), ctx.pathParam("annotation_id"));
        ServiceApiBodies.json(ctx, 204, new ChatRoutes.Result("success"));
    }

    /** A field Dify's parser reads as a string: absent is null; any other JSON type is refused. */
    private static String text(Map<String, Object> body, String field) {
        Object value = body.get(field);
        if (value != null && !(value instanceof String)) {
            throw new ApiException(ApiError.INVALID_PARAM, field + " must be a string");
        }
        return (String) value;
    }

    private static Shown shown(Annotation annotation) {
        return new Shown(annotation.id(), annotation.question(), annotation.answer(), annotation.hitCount(),
                annotation.createdAt());
    }

    /** Dify's annotation_fields. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record Shown(String id, String question, String answer, long hitCount, long createdAt) {
    }

    /** Dify's annotation list: the page, whether it is full, and the page and limit as asked. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record Page(List<Shown> data, boolean hasMore, int limit, long total, int page) {
    }

    /** Dify's answer to an enable or disable: the job and its status. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record Job(String jobId, String jobStatus) {
    }

    /** Dify's status of a job: an empty error_msg unless it failed. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record JobStatus(String jobId, String jobStatus, String errorMsg) {
    }
}
