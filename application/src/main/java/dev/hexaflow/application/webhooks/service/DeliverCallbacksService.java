package dev.hexaflow.application.webhooks.service;

import dev.hexaflow.application.common.port.out.SecretGenerator;
import dev.hexaflow.application.runs.port.out.RunRepository;
import dev.hexaflow.application.webhooks.port.in.DeliverCallbacksUseCase;
import dev.hexaflow.application.webhooks.port.out.CallbackSender.Answer;
import dev.hexaflow.application.webhooks.port.out.CallbackSender;
import dev.hexaflow.application.webhooks.port.out.DeliveryRepository.Claim;
import dev.hexaflow.application.webhooks.port.out.DeliveryRepository.PassOver;
import dev.hexaflow.application.webhooks.port.out.DeliveryMonitor;
import dev.hexaflow.application.webhooks.port.out.DeliveryRepository;
import dev.hexaflow.application.webhooks.port.out.RunDetailRenderer;
import dev.hexaflow.application.webhooks.port.out.WebhookSettingsRepository;
import dev.hexaflow.application.webhooks.port.out.WebhookSigner;
import dev.hexaflow.domain.webhook.Delivery;
import dev.hexaflow.domain.webhook.DeliveryAttempt;
import dev.hexaflow.domain.webhook.DeliveryKind;
import dev.hexaflow.domain.webhook.DeliveryState;
import dev.hexaflow.domain.webhook.RetrySchedule;
import dev.hexaflow.domain.workflow.WorkflowRun;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;

/**
 * Posts each due delivery's body (its run's detail, or the pause it tells of), signed, and keeps what came of it:
 * delivered on a 2xx in time, due again after the schedule's wait otherwise, failed once the schedule gives up or
 * the outbound policy refuses the address. A delivery is claimed before it is sent, so that of several instances
 * on one database only one sends it; a claim outlives the longest attempt, and one left by a stopped instance runs
 * out and is claimed again.
 *
 * <p>It claims only as many deliveries as it has free senders, so that a claim starts as its send does and no
 * claimed delivery waits in a queue while its claim runs out; a send starts by extending its claim and records its
 * outcome only while it still holds it, so a sender whose claim ran out and was taken again neither posts nor
 * records anything. An app has at most half the senders (at least one) at once, and a receiver (a URL's scheme,
 * host and port) at most an eighth (at least one): a receiver that never answers holds up its own deliveries, not
 * those of other receivers, and an app's many receivers not every other app's.
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

    /** How many deliveries waiting for their run the sweep reads at a time. */
    private static final int SWEEP_PAGE = 128;
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
    private final int senders;
    private final int sendersPerApp;
    private final int sendersPerReceiver;
    private final DeliveryMonitor monitor;
    private final System.Logger log = System.getLogger(DeliverCallbacksService.class.getName());
    /** The sends handed to {@link #sends} and not yet over, in all, by app and by receiver. */
    private int busy;
    private final Map<String, Integer> busyByApp = new HashMap<>();
    private final Map<String, Integer> busyByReceiver = new HashMap<>();

    /**
     * @param sends runs each post, so that a slow receiver holds up only its own delivery
     * @param senders how many posts {@code sends} runs at once: no more are claimed than it has free
     */
    public DeliverCallbacksService(DeliveryRepository deliveries, WebhookSettingsRepository settings,
            RunRepository runs, RunDetailRenderer renderer, CallbackSender sender, SecretGenerator secrets,
            WebhookSigner signer, RetrySchedule schedule, Clock clock, Executor sends, int senders) {
        this(deliveries, settings, runs, renderer, sender, secrets, signer, schedule, clock, sends, senders,
                DeliveryMonitor.NONE);
    }

    /** @param monitor hears what came of each attempt (metrics) */
    public DeliverCallbacksService(DeliveryRepository deliveries, WebhookSettingsRepository settings,
            RunRepository runs, RunDetailRenderer renderer, CallbackSender sender, SecretGenerator secrets,
            WebhookSigner signer, RetrySchedule schedule, Clock clock, Executor sends, int senders,
            DeliveryMonitor monitor) {
        if (senders < 1) {
            throw new IllegalArgumentException("senders must be 1 or more, was " + senders);
        }
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
        this.senders = senders;
        this.sendersPerApp = Math.max(1, senders / 2);
        this.sendersPerReceiver = Math.max(1, senders / 8);
        this.monitor = monitor;
    }

    @Override
    public int deliverDue() {
        int claimed = 0;
        Optional<Claim> claim;
        while ((claim = claimForFreeSender()).isPresent()) {
            Claim held = claim.get();
            try {
                sends.execute(() -> sendAndRelease(held));
            } catch (RejectedExecutionException e) {
                // Closing: the claim runs out, and this or another instance sends it then.
                release(held.delivery());
                return claimed;
            }
            claimed++;
        }
        return claimed;
    }

    /** Claims the next due delivery for a free sender, and counts that sender busy; empty when none is free. */
    private synchronized Optional<Claim> claimForFreeSender() {
        if (busy >= senders) {
            return Optional.empty();
        }
        long now = clock.millis();
        Optional<Claim> claim = deliveries.claimNext(now, now + claimSpan(),
                new PassOver(full(busyByApp, sendersPerApp), full(busyByReceiver, sendersPerReceiver)));
        claim.ifPresent(c -> {
            busy++;
            busyByApp.merge(c.delivery().appId(), 1, Integer::sum);
            busyByReceiver.merge(c.delivery().url().receiver(), 1, Integer::sum);
        });
        return claim;
    }

    private static Set<String> full(Map<String, Integer> busyBy, int most) {
        Set<String> full = new HashSet<>();
        busyBy.forEach((key, count) -> {
            if (count >= most) {
                full.add(key);
            }
        });
        return full;
    }

    private synchronized void release(Delivery delivery) {
        busy--;
        busyByApp.computeIfPresent(delivery.appId(), (app, count) -> count > 1 ? count - 1 : null);
        busyByReceiver.computeIfPresent(delivery.url().receiver(), (receiver, count) -> count > 1 ? count - 1
                : null);
    }

    /** Long enough for the post, its redirects and the write of its outcome. */
    private long claimSpan() {
        return schedule.timeout().multipliedBy(3).plus(Duration.ofSeconds(30)).toMillis();
    }

    private void sendAndRelease(Claim claim) {
        try {
            send(claim);
        } catch (RuntimeException e) {
            // The claim runs out and the delivery is tried again; a sender thread must not die of it.
            log.log(System.Logger.Level.WARNING, "Sending webhook delivery " + claim.delivery().id()
                    + " failed; it is tried again once its claim runs out", e);
        } finally {
            release(claim.delivery());
        }
    }

    /** Sends one claimed delivery, if its claim still holds as the send starts, and keeps the outcome. */
    void send(Claim claimed) {
        Optional<Claim> held = deliveries.extend(claimed, clock.millis() + claimSpan());
        if (held.isEmpty()) {
            return;
        }
        Claim claim = held.get();
        Delivery delivery = claim.delivery();
        byte[] body = bodyOf(delivery);
        if (body == null) {
            deliveries.settle(claim,
                    delivery.abandoned("The run is no longer kept (pruned), so there is nothing to send."), null);
            heard(DeliveryMonitor.Outcome.GIVEN_UP);
            return;
        }
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
        deliveries.settle(claim, next, attempt);
        heard(next.state() == DeliveryState.DELIVERED ? DeliveryMonitor.Outcome.DELIVERED
                : next.state() == DeliveryState.FAILED ? DeliveryMonitor.Outcome.GIVEN_UP
                : DeliveryMonitor.Outcome.FAILED_ATTEMPT);
    }

    /**
     * What a delivery posts: a pause's body as it was kept, or the run's detail as it is now; null when the run is
     * no longer kept.
     */
    private byte[] bodyOf(Delivery delivery) {
        if (delivery.kind() == DeliveryKind.PAUSED) {
            return delivery.payload().getBytes(StandardCharsets.UTF_8);
        }
        return runs.find(delivery.appId(), delivery.runId()).map(renderer::render).orElse(null);
    }

    private void heard(DeliveryMonitor.Outcome outcome) {
        try {
            monitor.attempted(outcome);
        } catch (RuntimeException e) {
            // Metrics never cost a delivery its outcome.
        }
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
    public int prune() {
        return deliveries.pruneEnded(clock.instant().minus(ENDED_KEPT).toEpochMilli());
    }

    @Override
    public int sweep() {
        long now = clock.millis();
        int moved = 0;
        Delivery after = null;
        List<Delivery> page;
        // Through all of them: runs that go on for hours must not hide a newer one whose run has ended.
        do {
            page = deliveries.awaitingRun(after, SWEEP_PAGE);
            for (Delivery delivery : page) {
                moved += sweep(delivery, now) ? 1 : 0;
            }
            after = page.isEmpty() ? null : page.get(page.size() - 1);
        } while (page.size() == SWEEP_PAGE);
        return moved;
    }

    private boolean sweep(Delivery delivery, long now) {
        Optional<WorkflowRun> run = runs.find(delivery.appId(), delivery.runId());
        // A paused run has not ended: its completion waits until it goes on and ends (or is stopped).
        if (run.isPresent() && run.get().status().isTerminal()) {
            return deliveries.move(delivery.due(now), DeliveryState.AWAITING_RUN, null);
        }
        if (run.isEmpty() && now - delivery.createdAt() > NEVER_KEPT_AFTER_MILLIS) {
            return deliveries.move(delivery.abandoned("The run was never kept: it did not start."),
                    DeliveryState.AWAITING_RUN, null);
        }
        return false;
    }
}
