package dev.hexaflow.app.jobs;

import dev.hexaflow.application.runs.port.in.AnswerFormUseCase;
import java.time.Duration;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Every {@link #EVERY}, ends the human-input forms whose time ran out, so that their runs take the timeout branch,
 * and lets go on the runs paused at a tool node whose called app's run has moved on (a caller the called run's own
 * instance missed: it stopped, or the caller paused just after): on every instance, since the store lets one of them
 * claim each form.
 */
public final class FormExpiry implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(FormExpiry.class);
    static final Duration EVERY = Duration.ofSeconds(30);

    private final AnswerFormUseCase forms;
    private final ScheduledExecutorService timer = DaemonThreads.scheduler("hexaflow-form-expiry");

    public FormExpiry(AnswerFormUseCase forms) {
        this.forms = forms;
    }

    public void start() {
        timer.scheduleWithFixedDelay(this::expire, EVERY.toSeconds(), EVERY.toSeconds(), TimeUnit.SECONDS);
    }

    /** One sweep; a failure waits for the next one, which finds the same forms. */
    void expire() {
        try {
            int expired = forms.expireDue();
            if (expired > 0) {
                LOG.info("{} human-input forms expired; their runs take the timeout branch", expired);
            }
            int callers = forms.goOnWaitingCallers();
            if (callers > 0) {
                LOG.info("{} runs waiting on an app run as a tool go on", callers);
            }
        } catch (RuntimeException e) {
            LOG.warn("Ending expired human-input forms failed; the next try is in {} s: {}", EVERY.toSeconds(),
                    e.toString());
        }
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}
