package dev.hexaflow.application.webhook.service;

import dev.hexaflow.application.app.port.out.RunRepository;
import dev.hexaflow.application.common.port.out.SecretGenerator;
import dev.hexaflow.application.webhook.port.in.DeliverCallbacksUseCase;
import dev.hexaflow.application.webhook.port.out.CallbackSender;
import dev.hexaflow.application.webhook.port.out.CallbackSender.Answer;
import dev.hexaflow.application.webhook.port.out.DeliveryRepository;
import dev.hexaflow.application.webhook.port.out.RunDetailRenderer;
import dev.hexaflow.application.webhook.port.out.WebhookSettingsRepository;
import dev.hexaflow.application.webhook.port.out.WebhookSigner;
import dev.hexaflow.domain.webhook.Delivery;
import dev.hexaflow.domain.webhook.DeliveryAttempt;
import dev.hexaflow.domain.webhook.DeliveryState;
import dev.hexaflow.domain.webhook.RetrySchedule;
import dev.hexaflow.domain.workflow.RunStatus;
import dev.hexaflow.domain.workflow.WorkflowRun;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executor;

/**
 * Posts each due delivery's run detail, signed, and keeps what came of it: delivered on a 2xx in time, due again
 * after the schedule's wait otherwise, failed once the schedule gives up or the outbound policy refuses the
 * address. A delivery is claimed before it is sent, so that of several instances on one database only one sends
 * it; a claim outlives the longest attempt, and one left by a stopped instance runs out and is claimed again.
 */
public final class DeliverCallbacksService implements DeliverCallbacksUseCase {

    /** The header of the Unix seconds the signature covers. */
    public static final String TIMESTAMP_HEADER = "X-Hexaflow-Timestamp";
    /** {@code sha256=<hex HMAC-SHA256 of "<timestamp>.<body>">} under the app's webhook secret. */
    public static final String SIGNATURE_HEADER = "X-Hexaflow-Signature";
    /** The delivery's id, the same on each attempt: a receiver that got it twice can tell. */
    public static final String DELIVERY_HEADER = "X-Hexaflow-Delivery";
    /** How many letters and digits a drawn webhook secret has (about 248 bits). */
    public static final int SECRET_LENGTH = 48;

    private static final int BATCH = 32;
    /** A run not kept a minute after its delivery was: it was refused, or the server stopped before it started. */
    private static final long NEVER_KEPT_AFTER_MILLIS = 60_000;

    private final DeliveryRepository deliveries;
    private final WebhookSettingsRepository settings;
    private final RunRepository runs;
    private final RunDetailRenderer renderer;
    private final CallbackSender sender;
    private final SecretGenerator secrets;
    private final WebhookSigner signer;
    private final RetrySchedule schedule;
    private final Clock clock;
    private final Executor sends;

    /** @param sends runs each post, so that a slow receiver holds up only its own delivery */
    public DeliverCallbacksService(DeliveryRepository deliveries, WebhookSettingsRepository settings,
            RunRepository runs, RunDetailRenderer renderer, CallbackSender sender, SecretGenerator secrets,
            WebhookSigner signer, RetrySchedule schedule, Clock clock, Executor sends) {
        this.deliveries = deliveries;
        this.settings = settings;
        this.runs = runs;
        this.renderer = renderer;
        this.sender = sender;
        this.secrets = secrets;
        this.signer = signer;
        this.schedule = schedule;
        this.clock = clock;
        this.sends = sends;
    }

    @Override
    public int deliverDue() {
        long now = clock.millis();
        // Long enough for the post, its redirects and the write of its outcome.
        long claimUntil = now + schedule.timeout().multipliedBy(3).plus(Duration.ofSeconds(30)).toMillis();
        List<Delivery> claimed = deliveries.claimDue(now, claimUntil, BATCH);
        for (Delivery delivery : claimed) {
            sends.execute(() -> send(delivery));
        }
        return claimed.size();
    }

    /** Sends one claimed delivery and keeps the outcome. */
    void send(Delivery delivery) {
        Optional<WorkflowRun> run = runs.find(delivery.appId(), delivery.runId());
        if (run.isEmpty()) {
            deliveries.move(delivery.abandoned("The run is no longer kept (pruned), so there is nothing to send."),
                    DeliveryState.PENDING, null);
            return;
        }
        byte[] body = renderer.render(run.get());
        long startedAt = clock.millis();
        String timestamp = String.valueOf(startedAt / 1000);
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("Content-Type", "application/json");
        headers.put(TIMESTAMP_HEADER, timestamp);
        String signature = signer.sign(secretOf(delivery.appId()), signed(timestamp, body));
        headers.put(SIGNATURE_HEADER, "sha256=" + signature);
        headers.put(DELIVERY_HEADER, delivery.id());
        Answer answer = sender.post(delivery.url(), body, headers, schedule.timeout());
        long elapsed = Math.max(0, clock.millis() - startedAt);
        String error = answer.error();
        if (error == null && (answer.status() == null || answer.status() / 100 != 2)) {
            error = "The receiver answered " + answer.status() + ", not 2xx.";
        }
        DeliveryAttempt attempt = new DeliveryAttempt(delivery.attempts() + 1, startedAt, answer.status(), error,
                elapsed);
        Delivery next = attempt.succeeded() ? delivery.delivered(attempt)
                : answer.refused() ? delivery.refused(attempt) : delivery.failed(attempt, schedule);
        deliveries.move(next, DeliveryState.PENDING, attempt);
    }

    private String secretOf(String appId) {
        String secret = settings.find(appId).secret();
        return secret != null ? secret : settings.secretOrAdd(appId, secrets.newSecret(SECRET_LENGTH));
    }

    /** What the signature covers: {@code "<timestamp>.<body>"}, so that a replayed body shows its age. */
    private static byte[] signed(String timestamp, byte[] body) {
        byte[] prefix = (timestamp + ".").getBytes(StandardCharsets.UTF_8);
        byte[] message = java.util.Arrays.copyOf(prefix, prefix.length + body.length);
        System.arraycopy(body, 0, message, prefix.length, body.length);
        return message;
    }

    @Override
    public int sweep() {
        long now = clock.millis();
        int moved = 0;
        for (Delivery delivery : deliveries.awaitingRun(BATCH * 4)) {
            Optional<WorkflowRun> run = runs.find(delivery.appId(), delivery.runId());
            if (run.isPresent() && run.get().status() != RunStatus.RUNNING) {
                moved += deliveries.move(delivery.due(now), DeliveryState.AWAITING_RUN, null) ? 1 : 0;
            } else if (run.isEmpty() && now - delivery.createdAt() > NEVER_KEPT_AFTER_MILLIS) {
                moved += deliveries.move(delivery.abandoned("The run was never kept: it did not start."),
                        DeliveryState.AWAITING_RUN, null) ? 1 : 0;
            }
        }
        return moved;
    }
}
