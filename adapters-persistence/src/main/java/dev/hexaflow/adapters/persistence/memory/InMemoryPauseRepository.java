package dev.hexaflow.adapters.persistence.memory;

import dev.hexaflow.application.runs.port.out.PauseRepository;
import dev.hexaflow.application.runs.port.out.RunRepository.RunPause;
import dev.hexaflow.domain.workflow.FormStatus;
import dev.hexaflow.domain.workflow.HumanInputForm;
import dev.hexaflow.domain.workflow.KeptForm;
import dev.hexaflow.domain.workflow.PausedRun;
import dev.hexaflow.domain.workflow.RunStatus;
import dev.hexaflow.domain.workflow.WorkflowRun;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The paused runs and forms of an {@link InMemoryRunRepository}, under its lock: a claim reads and changes a run
 * and its forms in one step, as the Jdbi store's transactions do, so that of two claims at once one wins. Values
 * are kept as that store reads them back (plain maps and lists, whole numbers as Long).
 */
final class InMemoryPauseRepository implements PauseRepository {

    private static final Comparator<Form> OLDEST_FIRST = Comparator.<Form>comparingLong(form -> form.createdAt)
            .thenComparing(form -> form.form.formId());

    /** A form as kept: what it was sent as, and what became of it. */
    private static final class Form {
        final HumanInputForm form;
        final String appId;
        final String endUserId;
        final long createdAt;
        FormStatus status = FormStatus.WAITING;
        String actionId;
        Map<String, Object> submittedData;
        Long answeredAt;
        boolean applied;

        Form(HumanInputForm form, String appId, String endUserId, long createdAt) {
            this.form = form;
            this.appId = appId;
            this.endUserId = endUserId;
            this.createdAt = createdAt;
        }

        KeptForm kept() {
            return new KeptForm(form, appId, endUserId, status, actionId, submittedData, createdAt, answeredAt,
                    applied);
        }
    }

    /** The runs, whose lock guards everything here as well. */
    private final InMemoryRunRepository runs;
    private final Map<String, PausedRun> pausedRuns = new HashMap<>();
    private final Map<String, Form> forms = new LinkedHashMap<>();
    private final Map<String, String> formIdsByToken = new HashMap<>();

    InMemoryPauseRepository(InMemoryRunRepository runs) {
        this.runs = runs;
    }

    /** Keeps a pause's paused run and new forms; refused whole, keeping nothing, when a form is kept already. */
    void keep(RunPause pause) {
        synchronized (runs) {
            for (HumanInputForm form : pause.newForms()) {
                if (forms.containsKey(form.formId()) || formIdsByToken.containsKey(form.formToken())) {
                    throw new IllegalStateException("form " + form.formId() + " is kept already");
                }
            }
            pausedRuns.put(pause.paused().run().id(), plain(pause.paused()));
            for (HumanInputForm form : pause.newForms()) {
                forms.put(form.formId(), new Form(plain(form), pause.appId(), pause.endUserId(), pause.pausedAt()));
                formIdsByToken.put(form.formToken(), form.formId());
            }
        }
    }

    /** Drops the paused run of a run that is no longer paused (it ended). */
    void dropUnlessPaused(String runId) {
        synchronized (runs) {
            if (runs.statusOf(runId) != RunStatus.PAUSED) {
                pausedRuns.remove(runId);
            }
        }
    }

    /** Forgets all that is kept of a pruned run. */
    void forget(String runId) {
        synchronized (runs) {
            pausedRuns.remove(runId);
            forms.values().removeIf(form -> form.form.runId().equals(runId));
            formIdsByToken.values().retainAll(forms.keySet());
        }
    }

    @Override
    public Optional<KeptForm> formByToken(String token) {
        synchronized (runs) {
            return Optional.ofNullable(formIdsByToken.get(token)).map(forms::get).map(Form::kept);
        }
    }

    @Override
    public List<KeptForm> forms(String runId) {
        synchronized (runs) {
            return forms.values().stream().filter(form -> form.form.runId().equals(runId)).sorted(OLDEST_FIRST)
                    .map(Form::kept).toList();
        }
    }

    @Override
    public boolean answer(String formId, FormStatus status, String actionId, Map<String, Object> inputs,
            long answeredAt) {
        if (status == FormStatus.WAITING) {
            throw new IllegalArgumentException("an answer takes a form out of waiting");
        }
        synchronized (runs) {
            Form form = forms.get(formId);
            if (form == null || form.status != FormStatus.WAITING) {
                return false;
            }
            form.status = status;
            form.actionId = actionId;
            form.submittedData = InMemoryRunRepository.plainMap(inputs);
            form.answeredAt = answeredAt;
            return true;
        }
    }

    @Override
    public Optional<PausedRun> takeForResume(String runId) {
        synchronized (runs) {
            PausedRun paused = pausedRuns.get(runId);
            if (runs.statusOf(runId) != RunStatus.PAUSED) {
                return Optional.empty();
            }
            if (paused == null) {
                throw new IllegalStateException("paused run " + runId + " kept no paused run");
            }
            runs.move(runId, RunStatus.PAUSED, run -> withStatus(run, RunStatus.RUNNING));
            return Optional.of(paused);
        }
    }

    @Override
    public void putBack(String runId) {
        runs.move(runId, RunStatus.RUNNING, run -> withStatus(run, RunStatus.PAUSED));
    }

    @Override
    public void applied(List<String> formIds) {
        synchronized (runs) {
            formIds.stream().map(forms::get).filter(java.util.Objects::nonNull).forEach(form -> form.applied = true);
        }
    }

    @Override
    public boolean stop(String runId, String error, long finishedAt) {
        synchronized (runs) {
            // Only the status, the error and the end time change, as the Jdbi store's UPDATE sets them.
            if (!runs.move(runId, RunStatus.PAUSED, run -> new WorkflowRun(run.id(), run.workflowId(),
                    RunStatus.STOPPED, run.inputs(), run.outputs(), error, run.elapsedTime(), run.totalTokens(),
                    run.totalSteps(), run.exceptionsCount(), run.createdAt(), finishedAt))) {
                return false;
            }
            forms.values().stream().filter(form -> form.form.runId().equals(runId)
                    && form.status == FormStatus.WAITING).forEach(form -> form.status = FormStatus.EXPIRED);
            pausedRuns.remove(runId);
            return true;
        }
    }

    @Override
    public List<KeptForm> expired(long now, int limit) {
        synchronized (runs) {
            return waitingOfPaused().filter(form -> form.form.expirationTime() <= now && form.form.forwardsTo() == null)
                    .sorted(Comparator.<Form>comparingLong(form -> form.form.expirationTime())
                            .thenComparing(form -> form.form.formId()))
                    .limit(limit).map(Form::kept).toList();
        }
    }

    @Override
    public List<KeptForm> waitingOnMovedRuns(String calledRunId, int limit) {
        synchronized (runs) {
            return waitingOfPaused().filter(form -> form.form.forwardsTo() != null
                    && (calledRunId == null || calledRunId.equals(form.form.forwardsTo().runId()))
                    && movedOn(form.form.forwardsTo())).sorted(OLDEST_FIRST).limit(limit).map(Form::kept).toList();
        }
    }

    /** Whether the called run ended, or is paused again past this form of it (a resumption applied its answer). */
    private boolean movedOn(HumanInputForm.FormRef called) {
        RunStatus status = runs.statusOf(called.runId());
        if (status == null || status == RunStatus.RUNNING) {
            return false;
        }
        Form form = forms.get(called.formId());
        return status != RunStatus.PAUSED || form != null && form.applied;
    }

    @Override
    public List<KeptForm> waiting(String appId, int limit) {
        synchronized (runs) {
            return waitingOfPaused().filter(form -> appId == null || form.appId.equals(appId))
                    .sorted(OLDEST_FIRST.reversed()).limit(limit).map(Form::kept).toList();
        }
    }

    /** Waiting forms of runs still paused: a form left waiting by a run that ended waits for nothing. */
    private Stream<Form> waitingOfPaused() {
        return forms.values().stream().filter(form -> form.status == FormStatus.WAITING
                && runs.statusOf(form.form.runId()) == RunStatus.PAUSED);
    }

    private static WorkflowRun withStatus(WorkflowRun run, RunStatus status) {
        return new WorkflowRun(run.id(), run.workflowId(), status, run.inputs(), run.outputs(), run.error(),
                run.elapsedTime(), run.totalTokens(), run.totalSteps(), run.exceptionsCount(), run.createdAt(),
                run.finishedAt());
    }

    private static PausedRun plain(PausedRun paused) {
        WorkflowRun run = paused.run();
        Map<String, Map<String, Object>> variables = new LinkedHashMap<>();
        paused.variables().forEach((node, values) -> variables.put(node, InMemoryRunRepository.plainMap(values)));
        return new PausedRun(new WorkflowRun(run.id(), run.workflowId(), run.status(),
                InMemoryRunRepository.plainMap(run.inputs()), InMemoryRunRepository.plainMap(run.outputs()),
                run.error(), run.elapsedTime(), run.totalTokens(), run.totalSteps(), run.exceptionsCount(),
                run.createdAt(), run.finishedAt()), paused.taskId(), variables, paused.edges(), paused.waiting(),
                paused.nodeIndex(), InMemoryRunRepository.plainMap(paused.chat()));
    }

    @SuppressWarnings("unchecked")
    private static HumanInputForm plain(HumanInputForm form) {
        return new HumanInputForm(form.formId(), form.formToken(), form.runId(), form.nodeId(), form.nodeTitle(),
                form.formContent(), (List<Map<String, Object>>) InMemoryRunRepository.plainValue(form.inputs()),
                (List<Map<String, Object>>) InMemoryRunRepository.plainValue(form.actions()),
                form.resolvedDefaultValues(), form.expirationTime(),
                (List<Map<String, Object>>) InMemoryRunRepository.plainValue(form.deliveryMethods()),
                form.forwardsTo());
    }
}
