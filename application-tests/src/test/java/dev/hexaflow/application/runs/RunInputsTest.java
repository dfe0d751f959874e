package dev.hexaflow.application.runs;

import static dev.hexaflow.application.runs.RunLookupsTest.assertRefused;
import static org.assertj.core.api.Assertions.assertThat;

import dev.hexaflow.application.common.ApiError;
import dev.hexaflow.application.runs.port.in.RunWorkflowUseCase.RunObserver;
import dev.hexaflow.application.runs.port.in.RunWorkflowUseCase.RunWorkflowCommand;
import dev.hexaflow.application.runs.port.out.RunRepository.LogQuery;
import dev.hexaflow.application.runs.service.RunWorkflowService;
import dev.hexaflow.domain.workflow.RunStatus;
import dev.hexaflow.domain.workflow.WorkflowRun;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A run's inputs checked against its start form ({@link RunForms#form()}) on the real engine: each refusal is
 * Dify's invalid_param with Dify's message and keeps no run; what is accepted is kept as the form made it.
 */
class RunInputsTest {

    private final RunBed bed = new RunBed();
    private final RunWorkflowService service = bed.service(0);

    @AfterEach
    void close() {
        bed.close();
    }

    private WorkflowRun run(Map<String, Object> inputs) {
        return service.start(new RunWorkflowCommand(RunBed.FORM_APP, null, "ada", inputs, List.of()),
                RunObserver.NONE).await();
    }

    /** Refused with Dify's message, and nothing kept. */
    private void assertInputRefused(Map<String, Object> inputs, String message) {
        assertRefused(() -> run(inputs), ApiError.INVALID_PARAM, message);
        assertThat(bed.runs.logs(new LogQuery(RunBed.FORM_APP, null, null, 1, 10, null, null, null)).total())
                .isZero();
    }

    private static Map<String, Object> named(String name, Object... more) {
        Map<String, Object> inputs = new HashMap<>();
        inputs.put("name", name);
        for (int i = 0; i < more.length; i += 2) {
            inputs.put((String) more[i], more[i + 1]);
        }
        return inputs;
    }

    @Test
    void aRequiredInputLeftOutOrGivenAsNullIsRefused() {
        assertInputRefused(Map.of(), "name is required in input form");
        assertInputRefused(named(null), "name is required in input form");
    }

    @Test
    void aTextAtItsMaximumLengthIsKeptAndOneCharacterMoreIsRefused() {
        assertInputRefused(named("abcdefghijk"), "name in input form must be less than 10 characters");

        WorkflowRun run = run(named("abcdefghij"));

        assertThat(run.outputs()).containsEntry("greeting", "abcdefghij");
    }

    /** Dify counts characters, not UTF-16 units: ten emoji are ten characters. */
    @Test
    void aTextsLengthIsCountedInCharactersNotInUtf16Units() {
        String tenEmoji = "😀".repeat(10);

        assertThat(run(named(tenEmoji)).outputs()).containsEntry("greeting", tenEmoji);
    }

    @Test
    void aTextGivenAsAnotherTypeIsRefusedNamingTheFieldsKind() {
        assertInputRefused(named(null, "name", 7), "(type 'text-input') name in input form must be a string");
        assertInputRefused(named("ada", "bio", List.of("x")),
                "(type 'paragraph') bio in input form must be a string");
    }

    @Test
    void aSelectTakesOnlyOneOfItsOptionsAndItsDefaultWhenLeftOut() {
        assertInputRefused(named("ada", "tone", "angry"),
                "tone in input form must be one of the following: ['calm', 'loud']");
        assertInputRefused(named("ada", "tone", "Calm"),
                "tone in input form must be one of the following: ['calm', 'loud']");

        assertThat(run(named("ada")).inputs()).containsEntry("tone", "calm");
        assertThat(run(named("ada", "tone", "loud")).inputs()).containsEntry("tone", "loud");
    }

    @Test
    void aNumberMayComeAsTextAndAnythingElseIsRefused() {
        assertInputRefused(named("ada", "count", "seven"), "count in input form must be a valid number");
        assertInputRefused(named("ada", "count", true), "count in input form must be a valid number");

        assertThat(run(named("ada", "count", "42")).inputs()).containsEntry("count", 42L);
        assertThat(run(named("ada", "count", "2.5")).inputs()).containsEntry("count", 2.5);
        assertThat(run(named("ada", "count", " ")).inputs()).containsEntry("count", null);
    }

    @Test
    void aCheckboxTakesWordsAndZeroOrOneAsBooleans() {
        assertThat(run(named("ada", "agree", "Yes")).inputs()).containsEntry("agree", true);
        assertThat(run(named("ada", "agree", "off")).inputs()).containsEntry("agree", false);
        assertThat(run(named("ada", "agree", 1)).inputs()).containsEntry("agree", true);
        assertThat(run(named("ada", "agree", false)).inputs()).containsEntry("agree", false);
    }

    @Test
    void aJsonObjectMustBeAnObject() {
        assertInputRefused(named("ada", "meta", List.of(1, 2)), "meta in input form must be a dict");
        assertInputRefused(named("ada", "meta", "{}"), "meta in input form must be a dict");

        assertThat(run(named("ada", "meta", Map.of("k", "v"))).inputs()).containsEntry("meta", Map.of("k", "v"));
    }

    @Test
    void inputsTheFormDoesNotAskForAreDroppedAndTheSystemsAreKeptBesideTheForms() {
        WorkflowRun run = run(named("ada", "intruder", "x"));

        assertThat(run.inputs()).doesNotContainKey("intruder").containsEntry("name", "ada")
                .containsEntry("sys.user_id", "ada").containsEntry("sys.app_id", RunBed.FORM_APP);
        assertThat(run.status()).isEqualTo(RunStatus.SUCCEEDED);
    }

    @Test
    void aNulCharacterIsTakenOutOfATextBeforeItIsKept() {
        WorkflowRun run = run(named("a\u0000da"));

        assertThat(run.inputs()).containsEntry("name", "ada");
        assertThat(run.outputs()).containsEntry("greeting", "ada");
    }

    @Test
    void theFirstFieldAtFaultInTheFormsOrderIsTheOneNamed() {
        // name comes before tone in the form: with both wrong, name's fault is told.
        assertInputRefused(Map.of("tone", "angry"), "name is required in input form");
    }
}
