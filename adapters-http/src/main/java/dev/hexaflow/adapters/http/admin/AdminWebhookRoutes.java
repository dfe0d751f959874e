package dev.hexaflow.adapters.http.admin;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import dev.hexaflow.adapters.http.server.RouteGroup;
import dev.hexaflow.adapters.http.support.JsonResponses;
import dev.hexaflow.adapters.http.support.QueryNumbers;
import dev.hexaflow.application.webhooks.port.in.ListDeliveriesUseCase.DeliveriesQuery;
import dev.hexaflow.application.webhooks.port.in.ListDeliveriesUseCase.DeliveryPage;
import dev.hexaflow.application.webhooks.port.in.ListDeliveriesUseCase.DeliveryWithAttempts;
import dev.hexaflow.application.webhooks.port.in.ListDeliveriesUseCase;
import dev.hexaflow.application.webhooks.port.in.ManageWebhooksUseCase;
import dev.hexaflow.application.webhooks.port.in.RedeliverUseCase;
import dev.hexaflow.domain.webhook.Delivery;
import dev.hexaflow.domain.webhook.DeliveryAttempt;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import java.util.List;

/**
 * An app's completion webhooks for the operator: its deliveries with their attempts, newest first, and a new
 * signing secret, shown once, in the answer that makes it.
 */
public final class AdminWebhookRoutes implements RouteGroup {

    private final AdminAuthorization admin;
    private final ManageWebhooksUseCase webhooks;
    private final ListDeliveriesUseCase deliveries;
    private final RedeliverUseCase redeliver;

    public AdminWebhookRoutes(AdminAuthorization admin, ManageWebhooksUseCase webhooks,
            ListDeliveriesUseCase deliveries, RedeliverUseCase redeliver) {
        this.admin = admin;
        this.webhooks = webhooks;
        this.deliveries = deliveries;
        this.redeliver = redeliver;
    }

    @Override
    public void addTo(RoutesConfig routes) {
        routes.get("/admin/apps/{app_id}/deliveries", admin.require(this::deliveries));
        routes.post("/admin/apps/{app_id}/webhook-secret", admin.require(this::rotateSecret));
        routes.post("/admin/apps/{app_id}/deliveries/{delivery_id}/redeliver", admin.require(this::redeliver));
    }

    /** An ended delivery due again at once; the deliverer sends it within its poll (a second at most). */
    private void redeliver(Context ctx) {
        Delivery due = redeliver.redeliver(ctx.pathParam("app_id"), ctx.pathParam("delivery_id"));
        ctx.status(202).contentType("application/json").result(JsonResponses.json(
                DeliveryBody.of(new DeliveryWithAttempts(due, List.of()))));
    }

    private void deliveries(Context ctx) {
        DeliveryPage page = deliveries.list(new DeliveriesQuery(ctx.pathParam("app_id"),
                QueryNumbers.number(ctx, "page", 1), QueryNumbers.number(ctx, "limit", 20)));
        ctx.status(200).contentType("application/json").result(JsonResponses.json(new DeliveryList(page.page(),
                page.limit(), page.total(), page.hasMore(), page.items().stream().map(DeliveryBody::of).toList())));
    }

    private void rotateSecret(Context ctx) {
        String secret = webhooks.rotateSecret(ctx.pathParam("app_id"));
        ctx.status(201).contentType("application/json").result(JsonResponses.json(new Secret(secret)));
    }

    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record DeliveryList(int page, int limit, long total, boolean hasMore, List<DeliveryBody> data) {
    }

    /**
     * A delivery as the operator sees it: {@code kind} says whether it posts the run's end ({@code completion}) or
     * one of its pauses ({@code paused}); times in Unix seconds, as Dify's.
     */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record DeliveryBody(String id, String workflowRunId, String kind, String url, String state, int attemptCount,
            Long nextAttemptAt, Integer lastStatus, String lastError, long createdAt, List<AttemptBody> attempts) {

        static DeliveryBody of(DeliveryWithAttempts record) {
            Delivery d = record.delivery();
            return new DeliveryBody(d.id(), d.runId(), d.kind().wireName(), d.url().value(), d.state().wireName(),
                    d.attempts(),
                    d.state() == dev.hexaflow.domain.webhook.DeliveryState.PENDING ? d.nextAttemptAt() / 1000 : null,
                    d.lastStatus(), d.lastError(), d.createdAt() / 1000,
                    record.attempts().stream().map(AttemptBody::of).toList());
        }
    }

    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record AttemptBody(int number, long attemptedAt, Integer statusCode, String error, long elapsedMs) {

        static AttemptBody of(DeliveryAttempt attempt) {
            return new AttemptBody(attempt.number(), attempt.attemptedAt() / 1000, attempt.statusCode(),
                    attempt.error(), attempt.elapsedMillis());
        }
    }

    record Secret(String secret) {
    }
}
