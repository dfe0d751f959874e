package dev.hexaflow.domain.trigger;

import static dev.hexaflow.domain.trigger.TestSpecs.param;
import static dev.hexaflow.domain.trigger.TestSpecs.spec;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hexaflow.domain.trigger.WebhookSpec.Parameter;
import dev.hexaflow.domain.workflow.InvalidNodeDataException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Reading a trigger-webhook node's data: Dify's defaults, its allowed types, and the editor's name rules. */
class WebhookSpecTest {

    @Test
    void aNodeWithNoSettingsHasDifysDefaults() {
        WebhookSpec spec = spec();

        assertThat(spec.method()).isEqualTo(WebhookMethod.GET);
        assertThat(spec.contentType()).isEqualTo(WebhookContentType.JSON);
        assertThat(spec.headers()).isEmpty();
        assertThat(spec.params()).isEmpty();
        assertThat(spec.body()).isEmpty();
        assertThat(spec.statusCode()).isEqualTo(200);
        assertThat(spec.responseBody()).isEmpty();
        assertThat(spec.asyncMode()).isTrue();
        assertThat(spec.timeout()).isEqualTo(Duration.ofSeconds(30));
    }

    @Test
    void theEditorsExportIsReadWithItsUpperCaseMethodAndTypedParameters() {
        WebhookSpec spec = spec("method", "POST", "content_type", "application/x-www-form-urlencoded",
                "headers", List.of(Map.of("name", "X-Token", "required", true)),
                "params", List.of(param("page", "number", false)),
                "body", List.of(param("tags", "array[string]", true)),
                "status_code", 202, "response_body", "ok", "async_mode", false, "timeout", 5);

        assertThat(spec.method()).isEqualTo(WebhookMethod.POST);
        assertThat(spec.contentType()).isEqualTo(WebhookContentType.FORM_URLENCODED);
        assertThat(spec.headers()).containsExactly(new Parameter("X-Token", WebhookParameterType.STRING, true));
        assertThat(spec.params()).containsExactly(new Parameter("page", WebhookParameterType.NUMBER, false));
        assertThat(spec.body()).containsExactly(new Parameter("tags", WebhookParameterType.ARRAY_STRING, true));
        assertThat(spec.statusCode()).isEqualTo(202);
        assertThat(spec.responseBody()).isEqualTo("ok");
        assertThat(spec.asyncMode()).isFalse();
        assertThat(spec.timeout()).isEqualTo(Duration.ofSeconds(5));
    }

    @Test
    void eachListRefusesTheTypesDifyDoesNotAllowInItWithDifysMessage() {
        assertThatThrownBy(() -> spec("headers", List.of(param("X-N", "number", false))))
                .isInstanceOf(InvalidNodeDataException.class)
                .hasFieldOrPropertyWithValue("field", "headers[0].type")
                .hasFieldOrPropertyWithValue("problem", "Unsupported webhook header parameter type: number");
        assertThatThrownBy(() -> spec("params", List.of(param("a", "string", false), param("o", "object", false))))
                .hasFieldOrPropertyWithValue("field", "params[1].type")
                .hasFieldOrPropertyWithValue("problem", "Unsupported webhook query parameter type: object");
        assertThatThrownBy(() -> spec("body", List.of(param("x", "array[file]", false))))
                .hasFieldOrPropertyWithValue("problem", "Unsupported webhook body parameter type: array[file]");
    }

    @Test
    void anUnknownMethodOrContentTypeIsRefusedNamingTheField() {
        assertThatThrownBy(() -> spec("method", "OPTIONS"))
                .isInstanceOf(InvalidNodeDataException.class)
                .hasFieldOrPropertyWithValue("field", "method")
                .hasMessageContaining("'OPTIONS'");
        assertThatThrownBy(() -> spec("content_type", "application/xml"))
                .hasFieldOrPropertyWithValue("field", "content_type");
    }

    @Test
    void twoParametersWithTheSameOutputAreRefusedAHeadersDashCountingAsAnUnderscore() {
        assertThatThrownBy(() -> spec("headers", List.of(param("X-Id", "string", false)),
                "body", List.of(param("X_Id", "string", false))))
                .isInstanceOf(InvalidNodeDataException.class)
                .hasFieldOrPropertyWithValue("field", "body[0].name")
                .hasMessageContaining("'X_Id'");
        assertThatThrownBy(() -> spec("params", List.of(param("a", "string", false), param("a", "number", true))))
                .hasFieldOrPropertyWithValue("field", "params[1].name");
    }

    @Test
    void noParameterMayTakeTheRawRequestsOutput() {
        assertThatThrownBy(() -> spec("params", List.of(param("_webhook_raw", "string", false))))
                .isInstanceOf(InvalidNodeDataException.class)
                .hasFieldOrPropertyWithValue("field", "params[0].name");
        assertThatThrownBy(() -> spec("headers", List.of(param("-webhook-raw", "string", false))))
                .hasFieldOrPropertyWithValue("field", "headers[0].name");
    }

    @Test
    void aParameterWithoutANameAStatusOutOfRangeOrANoughtTimeoutIsRefused() {
        assertThatThrownBy(() -> spec("body", List.of(Map.of("type", "string"))))
                .hasFieldOrPropertyWithValue("field", "body[0].name");
        assertThatThrownBy(() -> spec("status_code", 99)).hasFieldOrPropertyWithValue("field", "status_code");
        assertThatThrownBy(() -> spec("status_code", 600)).hasFieldOrPropertyWithValue("field", "status_code");
        assertThatThrownBy(() -> spec("status_code", 4_294_967_496L))
                .hasFieldOrPropertyWithValue("field", "status_code");
        assertThatThrownBy(() -> spec("timeout", 0)).hasFieldOrPropertyWithValue("field", "timeout");
        assertThat(spec("status_code", 599).statusCode()).isEqualTo(599);
        assertThat(spec("status_code", 200).statusCode()).isEqualTo(200);
        assertThatThrownBy(() -> spec("status_code", 100)).hasFieldOrPropertyWithValue("field", "status_code");
    }
}
