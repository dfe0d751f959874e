package dev.hexaflow.application.runs.service;

import dev.hexaflow.application.runs.port.out.FormMailer;
import dev.hexaflow.application.runs.port.out.FormMailer.FormMail;
import dev.hexaflow.domain.workflow.HumanInputForm;
import dev.hexaflow.domain.workflow.RunEvent;
import dev.hexaflow.workflow.engine.RunListener;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Supplier;

/**
 * Sends the mails a paused run's new forms ask for (their enabled {@code email} delivery methods), each with the
 * link of the form's page. Only once the pause is kept, so that the link opens; and on an executor, never on the
 * run's thread, so that a mail server slow or down delays no run and fails no pause. A mail that does not go out is
 * one warning line naming the run and the form (the mailer's reason never holds its password).
 */
public final class PausedFormMails {

    /** A server without a mail server: nothing is sent. */
    public static final PausedFormMails NONE = new PausedFormMails(FormMailer.NONE, () -> "", Runnable::run);

    private static final System.Logger LOG = System.getLogger(PausedFormMails.class.getName());

    private final FormMailer mailer;
    private final Supplier<String> baseUrl;
    private final Executor executor;

    /**
     * @param baseUrl  where the server is reached from outside, without a trailing slash; a form's link is this
     *                 and {@code /form/TOKEN}. Asked at each pause: a server learns its own address once it serves
     * @param executor sends the mails, off the run's thread
     */
    public PausedFormMails(FormMailer mailer, Supplier<String> baseUrl, Executor executor) {
        this.mailer = mailer;
        this.baseUrl = baseUrl;
        this.executor = executor;
    }

    /**
     * The run's listener, followed by the mails of each pause once it is kept ({@code kept}, read after the pause
     * was played: the recorder's {@code settled}), so that a form's link finds its form; none for a pause that
     * could not be kept.
     */
    RunListener after(RunListener listener, Supplier<CompletableFuture<Void>> kept) {
        if (mailer == FormMailer.NONE) {
            return listener;
        }
        return event -> {
            listener.on(event);
            if (event instanceof RunEvent.WorkflowPaused paused) {
                kept.get().thenRun(() -> send(paused.run().id(), paused.newForms()));
            }
        };
    }

    private void send(String runId, List<HumanInputForm> forms) {
        for (HumanInputForm form : forms) {
            if (!form.deliveredByEmail()) {
                continue;
            }
            try {
                // Made on the executor too: this runs on whichever thread kept the pause, the store's writer's.
                executor.execute(() -> mail(runId, form));
            } catch (RejectedExecutionException e) {
                warn(runId, form, "the server is shutting down");
            }
        }
    }

    private void mail(String runId, HumanInputForm form) {
        List<FormMail> mails;
        try {
            mails = FormMails.of(form, baseUrl.get() + "/form/" + form.formToken());
        } catch (RuntimeException e) {
            warn(runId, form, e.getMessage());
            return;
        }
        mails.forEach(mail -> sendOne(runId, form, mail));
    }

    private void sendOne(String runId, HumanInputForm form, FormMail mail) {
        try {
            mailer.send(mail);
        } catch (RuntimeException e) {
            warn(runId, form, e.getMessage());
        }
    }

    private static void warn(String runId, HumanInputForm form, String reason) {
        LOG.log(System.Logger.Level.WARNING, "The mail of form " + form.formId() + " (node " + form.nodeId()
                + ") of run " + runId + " was not sent: " + reason);
    }
}
