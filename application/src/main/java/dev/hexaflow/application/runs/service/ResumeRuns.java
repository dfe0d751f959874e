package dev.hexaflow.application.runs.service;

import dev.hexaflow.application.apps.port.out.WorkflowVersionRepository;
import dev.hexaflow.application.runs.port.out.CompletionWebhooks;
import dev.hexaflow.application.runs.port.out.PauseRepository;
import dev.hexaflow.application.runs.port.out.ResumedTurns;
import dev.hexaflow.application.runs.port.out.RunEventFormat;
import dev.hexaflow.application.runs.port.out.RunMonitor;
import dev.hexaflow.application.runs.port.out.RunRepository.KeptEvent;
import dev.hexaflow.application.runs.port.out.RunRepository;
import dev.hexaflow.domain.app.EndUser;
import dev.hexaflow.domain.app.WorkflowVersion;
import dev.hexaflow.domain.webhook.Delivery;
import dev.hexaflow.domain.workflow.FormAnswer;
import dev.hexaflow.domain.workflow.FormStatus;
import dev.hexaflow.domain.workflow.HumanInputForm;
import dev.hexaflow.domain.workflow.KeptForm;
import dev.hexaflow.domain.workflow.PausedRun;
import dev.hexaflow.domain.workflow.RunStatus;
import dev.hexaflow.domain.workflow.WorkflowRun;
import dev.hexaflow.workflow.engine.PreparedWorkflow;
import dev.hexaflow.workflow.engine.RunHandle;
import dev.hexaflow.workflow.engine.RunListener;
import dev.hexaflow.workflow.engine.WorkflowEngine;
import dev.hexaflow.workflow.port.out.WorkflowDslReader;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;

/**
 * Lets a paused run go on, on this instance, with the answers its forms have: takes the run in the store (one
 * instance, one taker), applies every answer not yet applied, and plays the next stretch with a recorder that
 * numbers its events on from the last one kept. A stretch that pauses again is looked at once more, since a form
 * answered while it ran found the run taken (two parallel forms answered at once leave no run paused with both
 * answers given). A chatflow's run is also heard by its chat turn ({@link ResumedTurns}), which completes the
 * turn's message from the rest of the run. A run with a completion webhook tells its receiver of each next pause, and
 * makes its completion due once it ends.
 *
 * <p>A run paused at a tool node whose app (run as a tool) waits for a person goes on once that called run moves on:
 * when it ends, or pauses past the form the caller's form forwards to ({@link #goOnCallersOf}). The caller's form
 * is claimed in the store first, so that of the instances that see it, one lets the caller go on.
 */
public final class ResumeRuns {

    /** Callers let go on in one call of {@link #goOnCallersOf}; the sweep finds the rest the next time. */
    private static final int CALLERS_PER_SWEEP = 100;

    private final RunRepository runs;
    private final PauseRepository pauses;
    private final WorkflowVersionRepository versions;
    private final WorkflowDslReader reader;
    private final WorkflowEngine engine;
    private final Executor listeners;
    private final RunEventFormat format;
    private final RunFeeds feeds;
    private final RunMonitor monitor;
    private final TaskRegistry tasks;
    private final Clock clock;
    private final PausedFormMails mails;
    private final ResumedTurns turns;
    private final CompletionWebhooks callbacks;
    private final PausedRunWebhooks pauseWebhooks;
    private final Map<String, PreparedWorkflow> prepared = new ConcurrentHashMap<>();

    /**
     * @param mails     sends the mails the forms of a next pause ask for
     * @param turns     keeps the message of a chatflow run's turn from the rest of the run
     * @param callbacks the runs' completion webhooks, told of each next pause and of the run's end
     */
    public ResumeRuns(RunRepository runs, WorkflowVersionRepository versions, WorkflowDslReader reader,
            WorkflowEngine engine, Executor listeners, RunEventFormat format, RunFeeds feeds, RunMonitor monitor,
            TaskRegistry tasks, Clock clock, PausedFormMails mails, ResumedTurns turns, CompletionWebhooks callbacks) {
        this.runs = runs;
        this.pauses = runs.pauses();
        this.versions = versions;
        this.reader = reader;
        this.engine = engine;
        this.listeners = listeners;
        this.format = format;
        this.feeds = feeds;
        this.monitor = monitor;
        this.tasks = tasks;
        this.clock = clock;
        this.mails = mails;
        this.turns = turns;
        this.callbacks = callbacks;
        this.pauseWebhooks = new PausedRunWebhooks(callbacks, format, listeners);
    }

    /** Lets the run go on if it is paused and has answers to go on with; otherwise does nothing. */
    public void goOn(String runId) {
        PausedRun paused = pauses.takeForResume(runId).orElse(null);
        if (paused == null) {
            return; // Running (it takes the answer at its next pause), ended, or taken by another instance.
        }
        List<KeptForm> answered = pauses.forms(runId).stream().filter(form -> !form.applied()
                && (form.status() == FormStatus.SUBMITTED || form.status() == FormStatus.TIMEOUT)
                && paused.waiting().containsKey(form.form().nodeId())).toList();
        if (answered.isEmpty()) {
            pauses.putBack(runId);
            return;
        }
        try {
            play(paused, answered);
        } catch (dev.hexaflow.application.common.ApiException closing) {
            pauses.putBack(runId); // The server is shutting down: the run waits for the next instance to take it.
        } catch (RuntimeException e) {
            fail(paused, "The run could not go on: " + e.getMessage());
        }
    }

    private void play(PausedRun paused, List<KeptForm> answered) {
        WorkflowRun run = paused.run();
        RunRepository.FoundRun found = runs.locate(run.id()).orElseThrow(() -> new IllegalStateException(
                "run " + run.id() + " is not kept"));
        WorkflowVersion version = versions.find(run.workflowId()).orElseThrow(() -> new IllegalStateException(
                "the version it ran is gone"));
        PreparedWorkflow workflow = prepared.computeIfAbsent(version.id(),
                id -> engine.prepare(reader.read(version.dsl().getBytes(StandardCharsets.UTF_8))));
        List<FormAnswer> answers = answered.stream().map(ResumeRuns::answerOf).toList();
        tasks.reserve(found.appId(), 0); // An answered form is never refused for the app's limit on runs.
        pauses.applied(answered.stream().map(form -> form.form().formId()).toList());
        EndUser user = found.entry().user();
        List<KeptEvent> kept = runs.events(run.id(), 0);
        long lastSeq = kept.isEmpty() ? 0 : kept.get(kept.size() - 1).seq();
        feeds.open(run.id(), found.appId(), paused.taskId());
        RunListener turn = workflow.workflow().isChat() ? turns.resuming(found.appId(), paused) : RunListener.NONE;
        RunRecorder recorder = RunRecorder.resuming(runs, found.appId(), paused.taskId(), user, run.id(), lastSeq,
                turn, listeners, format, feeds);
        // Whatever follows the run waits for its end to be kept (below), not the node thread that played it.
        recorder.leaveEndToCaller();
        RunListener watcher = monitor.watch(new RunMonitor.WatchedRun(found.appId(), workflow.workflow().isChat()
                ? "advanced-chat" : "workflow", run.id(), paused.taskId(), version.id(), user == null ? null
                : user.sessionId(), null));
        Delivery completion = callbacks.completionOf(run.id()).orElse(null);
        RunListener recorded = pauseWebhooks.after(mails.after(recorder, recorder::settled), recorder::settled,
                completion, paused.taskId());
        RunHandle handle = engine.resume(workflow, paused, answers, event -> {
            try {
                watcher.on(event);
            } catch (RuntimeException e) {
                // A watcher's failure is its own.
            }
            recorded.on(event);
        });
        tasks.track(found.appId(), user == null ? "" : user.sessionId(), handle)
                .thenCompose(ended -> recorder.settled().thenApply(settled -> ended)).whenComplete((ended, failure) -> {
            recorder.fed().whenComplete((fed, never) -> feeds.close(run.id(), ended, failure));
            if (ended != null && ended.status() == RunStatus.PAUSED) {
                listeners.execute(() -> goOn(run.id()));
            } else if (ended != null && ended.status().isTerminal() && completion != null) {
                completionDue(completion);
            }
            if (ended != null && ended.status() != RunStatus.RUNNING) {
                listeners.execute(() -> goOnCallersOf(run.id()));
            }
        });
    }

    /** The resumed run has ended and its end is kept: its completion is due now, off the engine's thread. */
    private void completionDue(Delivery completion) {
        try {
            listeners.execute(() -> callbacks.runEnded(completion));
        } catch (RejectedExecutionException e) {
            // Closing, the run already over: the next start's sweep makes its delivery due.
        }
    }

    /**
     * Lets each run paused on a form of the called run {@code calledRunId} (of any called run where it is null) go
     * on, if that called run has moved on: ended, or paused past that form. The caller's form takes the called
     * form's answer (a timeout where the called run ended without one); the caller's tool node then reads the called
     * run as it is now. Answers how many callers went on.
     */
    public int goOnCallersOf(String calledRunId) {
        int resumed = 0;
        for (KeptForm waiting : pauses.waitingOnMovedRuns(calledRunId, CALLERS_PER_SWEEP)) {
            HumanInputForm.FormRef called = waiting.form().forwardsTo();
            KeptForm answer = pauses.forms(called.runId()).stream().filter(form -> form.form().formId()
                    .equals(called.formId()) && form.status() == FormStatus.SUBMITTED).findFirst().orElse(null);
            long now = clock.instant().getEpochSecond();
            boolean claimed = answer == null
                    ? pauses.answer(waiting.form().formId(), FormStatus.TIMEOUT, null, Map.of(), now)
                    : pauses.answer(waiting.form().formId(), FormStatus.SUBMITTED, answer.actionId(),
                            answer.submittedData(), now);
            if (claimed) {
                resumed++;
                goOn(waiting.form().runId());
            }
        }
        return resumed;
    }

    private static FormAnswer answerOf(KeptForm form) {
        return form.status() == FormStatus.TIMEOUT ? FormAnswer.timedOut(form.form())
                : FormAnswer.submitted(form.form(), form.actionId(), form.submittedData());
    }

    /** A run that cannot go on (its version is gone, the store refused) ends failed with why, not paused for ever. */
    private void fail(PausedRun paused, String reason) {
        long now = clock.instant().getEpochSecond();
        try {
            runs.finished(paused.run().resume().finish(RunStatus.FAILED, paused.run().outputs(), reason,
                    paused.run().elapsedTime(), paused.run().totalTokens(), paused.run().totalSteps(),
                    paused.run().exceptionsCount(), now)).join();
            goOnCallersOf(paused.run().id());
        } catch (RuntimeException refused) {
            // The store refuses: the run stays taken (running) and the store's recovery fails it.
        }
    }
}
