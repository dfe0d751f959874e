package dev.hexaflow.application.runs;

import static dev.hexaflow.application.runs.RunLookupsTest.assertRefused;
import static org.assertj.core.api.Assertions.assertThat;

import dev.hexaflow.adapters.persistence.memory.InMemoryUploadRepository;
import dev.hexaflow.application.common.ApiError;
import dev.hexaflow.application.common.ApiException;
import dev.hexaflow.application.runs.port.in.RunWorkflowUseCase.RunObserver;
import dev.hexaflow.application.runs.port.in.RunWorkflowUseCase.RunWorkflowCommand;
import dev.hexaflow.application.runs.service.AnswerFormService;
import dev.hexaflow.application.runs.service.ControlRunService;
import dev.hexaflow.application.runs.service.RunWorkflowService;
import dev.hexaflow.application.runs.service.StopTaskService;
import dev.hexaflow.domain.workflow.FormStatus;
import dev.hexaflow.domain.workflow.KeptForm;
import dev.hexaflow.domain.workflow.RunStatus;
import dev.hexaflow.domain.workflow.WorkflowRun;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A paused run's forms, on the in-memory stores and the real engine: opened and answered by token (the first
 * answer wins, a bad one leaves the form open), expired by the clock into the timeout branch, closed by a stop.
 */
class HumanInputFormsTest {

    private final RunBed bed = new RunBed();
    private final RunWorkflowService service = bed.clockedService();
    private final AnswerFormService forms = new AnswerFormService(bed.runs.pauses(), new InMemoryUploadRepository(),
            bed.resumptions(), bed.clock);

    @AfterEach
    void close() {
        bed.close();
    }

    /** A run of the review app, paused at its form: the form as kept. */
    private KeptForm paused(String draft) {
        WorkflowRun run = service.start(new RunWorkflowCommand(RunBed.REVIEW_APP, null, "ada",
                Map.of("draft", draft), List.of()), RunObserver.NONE).await();
        assertThat(run.status()).isEqualTo(RunStatus.PAUSED);
        List<KeptForm> waiting = forms.waitingOf(RunBed.REVIEW_APP, run.id());
        assertThat(waiting).hasSize(1);
        return waiting.get(0);
    }

    private WorkflowRun ended(String runId) throws InterruptedException {
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (System.nanoTime() < until) {
            WorkflowRun run = bed.runs.find(RunBed.REVIEW_APP, runId).orElseThrow();
            if (run.status().isTerminal()) {
                return run;
            }
            Thread.sleep(5);
        }
        throw new AssertionError("run " + runId + " did not end");
    }

    @Test
    void anAnsweredFormLetsItsRunGoOnDownTheChosenAction() throws Exception {
        KeptForm form = paused("the plan");
        assertThat(forms.open(RunBed.REVIEW_APP, form.form().formToken()).form().formContent())
                .isEqualTo("Review the plan: {{#$output.feedback#}}");

        forms.answer(RunBed.REVIEW_APP, form.form().formToken(), "ada", "approve", Map.of("feedback", "go"));

        WorkflowRun run = ended(form.form().runId());
        assertThat(run.status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(run.outputs()).containsOnly(Map.entry("ok", "go"));
        assertThat(forms.waitingOf(RunBed.REVIEW_APP, run.id())).isEmpty();
    }

    @Test
    void aBadAnswerIsRefusedWithDifysWordsAndTheFormStaysOpen() {
        KeptForm form = paused("v2");
        String token = form.form().formToken();
        assertRefused(() -> forms.answer(RunBed.REVIEW_APP, token, "ada", "publish", Map.of("feedback", "x")),
                ApiError.INVALID_FORM_DATA, "Invalid action: publish");
        assertRefused(() -> forms.answer(RunBed.REVIEW_APP, token, "ada", "approve", Map.of()),
                ApiError.INVALID_FORM_DATA, "Missing required inputs: feedback");
        assertRefused(() -> forms.answer(RunBed.REVIEW_APP, token, "ada", "approve", Map.of("feedback", 42)),
                ApiError.INVALID_FORM_DATA, "Invalid value for paragraph input 'feedback': expected string");

        assertThat(forms.open(RunBed.REVIEW_APP, token).status()).isEqualTo(FormStatus.WAITING);
        assertThat(bed.runs.find(RunBed.REVIEW_APP, form.form().runId()).orElseThrow().status())
                .isEqualTo(RunStatus.PAUSED);
    }

    @Test
    void anotherAppsKeyAndAnUnknownTokenFindNoForm() {
        KeptForm form = paused("v3");
        assertRefused(() -> forms.open(RunBed.APP, form.form().formToken()), ApiError.NOT_FOUND, "Form not found");
        assertRefused(() -> forms.open(RunBed.REVIEW_APP, "not-a-token"), ApiError.NOT_FOUND, "Form not found");
    }

    @Test
    void ofTwoAnswersAtOnceOneWinsAndTheSameAnswerAgainIsTakenAsGiven() throws Exception {
        KeptForm form = paused("v4");
        String token = form.form().formToken();
        List<CompletableFuture<ApiError>> answers = new ArrayList<>();
        for (String action : List.of("approve", "reject")) {
            answers.add(CompletableFuture.supplyAsync(() -> {
                try {
                    forms.answer(RunBed.REVIEW_APP, token, "ada", action, Map.of("feedback", action));
                    return null;
                } catch (ApiException e) {
                    return e.error();
                }
            }));
        }
        List<ApiError> outcomes = answers.stream().map(CompletableFuture::join).toList();
        assertThat(outcomes).containsOnlyOnce((ApiError) null).contains(ApiError.HUMAN_INPUT_FORM_SUBMITTED);
        WorkflowRun run = ended(form.form().runId());
        KeptForm answered = forms.waitingOf(RunBed.REVIEW_APP, run.id()).isEmpty()
                ? bed.runs.pauses().formByToken(token).orElseThrow() : null;
        assertThat(answered).isNotNull();

        forms.answer(RunBed.REVIEW_APP, token, "ada", answered.actionId(), Map.of("feedback", answered.actionId()));
        assertRefused(() -> forms.answer(RunBed.REVIEW_APP, token, "ada", answered.actionId(),
                Map.of("feedback", "changed my mind")), ApiError.HUMAN_INPUT_FORM_SUBMITTED,
                "This form has already been submitted by another user, form_id=" + answered.form().formId());
    }

    @Test
    void aFormPastItsTimeIsRefusedAndTheSweepSendsItsRunDownTheTimeoutBranch() throws Exception {
        KeptForm form = paused("v5");
        assertThat(forms.expireDue()).as("nothing is due yet").isZero();
        bed.clock.advance(Duration.ofMinutes(61));

        assertRefused(() -> forms.open(RunBed.REVIEW_APP, form.form().formToken()), ApiError.HUMAN_INPUT_FORM_EXPIRED,
                "This form has expired, form_id=" + form.form().formId());
        assertThat(forms.expireDue()).isEqualTo(1);
        assertThat(forms.expireDue()).as("each form expires once").isZero();

        WorkflowRun run = ended(form.form().runId());
        assertThat(run.outputs()).containsOnly(Map.entry("late", ""));
        assertThat(bed.runs.pauses().formByToken(form.form().formToken()).orElseThrow().status())
                .isEqualTo(FormStatus.TIMEOUT);
    }

    @Test
    void anOperatorsStopEndsAPausedRunAndClosesItsForm() {
        KeptForm form = paused("v6");
        ControlRunService control = new ControlRunService(bed.runs, bed.apps,
                new StopTaskService(bed.tasks, new RecordingSignals()), service);

        assertThat(control.stop(form.form().runId())).isTrue();

        WorkflowRun run = bed.runs.find(RunBed.REVIEW_APP, form.form().runId()).orElseThrow();
        assertThat(run.status()).isEqualTo(RunStatus.STOPPED);
        assertRefused(() -> forms.answer(RunBed.REVIEW_APP, form.form().formToken(), "ada", "approve",
                Map.of("feedback", "too late")), ApiError.HUMAN_INPUT_FORM_EXPIRED,
                "This form has expired, form_id=" + form.form().formId());
        assertThat(control.stop(form.form().runId())).as("a stopped run is stopped once").isFalse();
    }

    @Test
    void theAppsWaitingFormsAreListedNewestFirstWithinALimit() {
        KeptForm first = paused("one");
        bed.clock.advance(Duration.ofSeconds(5));
        KeptForm second = paused("two");

        assertThat(forms.waiting(RunBed.REVIEW_APP, 10)).extracting(kept -> kept.form().formId())
                .containsExactly(second.form().formId(), first.form().formId());
        assertThat(forms.waiting(RunBed.APP, 10)).isEmpty();
        assertRefused(() -> forms.waiting(RunBed.REVIEW_APP, 0), ApiError.INVALID_PARAM,
                "limit must be between 1 and 100.");
    }
}
