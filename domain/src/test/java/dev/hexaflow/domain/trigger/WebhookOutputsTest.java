package dev.hexaflow.domain.trigger;

import static dev.hexaflow.domain.trigger.TestSpecs.param;
import static dev.hexaflow.domain.trigger.TestSpecs.spec;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What a webhook run starts with, what the node outputs, and what the caller is answered. */
class WebhookOutputsTest {

    @Test
    void aHeaderBecomesAnOutputWithUnderscoresFoundInAnyCaseOrSpelling() {
        WebhookSpec spec = spec("method", "POST", "headers", List.of(param("X-Api-Key", "string", false),
                param("x_trace", "string", false), param("X-Absent", "string", false)));
        Map<String, Object> data = spec.webhookData(TestCall.of("POST")
                .header("x-api-key", "k").header("X-Trace", "t").build());

        Map<String, Object> outputs = spec.outputs(data);

        assertThat(outputs).containsEntry("X_Api_Key", "k").containsEntry("x_trace", "t")
                .containsEntry("X_Absent", null);
    }

    @Test
    void paramsAndBodyFieldsAreOutputByNameAndTheRawOutputHoldsTheWholeData() {
        WebhookSpec spec = spec("method", "POST", "params", List.of(param("page", "number", false)),
                "body", List.of(param("name", "string", false), param("missing", "string", false)));
        Map<String, Object> data = spec.webhookData(TestCall.of("POST").query("page", "2")
                .body(Map.of("name", "Ada", "extra", 1)).build());

        Map<String, Object> outputs = spec.outputs(data);

        assertThat(outputs.keySet()).containsExactly("page", "name", "missing", "_webhook_raw");
        assertThat(outputs).containsEntry("page", 2L).containsEntry("name", "Ada").containsEntry("missing", null);
        assertThat(outputs.get("_webhook_raw")).isSameAs(data);
    }

    @Test
    void aTextBodyFieldIsTheWholeTextAndAFileFieldIsWhatTheFilesHold() {
        WebhookSpec text = spec("method", "POST", "content_type", "text/plain",
                "body", List.of(param("content", "string", false)));
        WebhookSpec multipart = spec("method", "POST", "content_type", "multipart/form-data",
                "body", List.of(param("doc", "file", false)));
        Map<String, Object> stored = Map.of("id", "f1");

        assertThat(text.outputs(text.webhookData(TestCall.of("POST").contentType("text/plain").body("hi").build())))
                .containsEntry("content", "hi");
        assertThat(multipart.outputs(multipart.webhookData(TestCall.of("POST").contentType("multipart/form-data")
                .files(Map.of("doc", stored)).build()))).containsEntry("doc", stored);
    }

    @Test
    void theRunsInputsAreDifysFourKeys() {
        Map<String, Object> data = spec().webhookData(TestCall.of("GET").query("q", "1").build());

        Map<String, Object> inputs = WebhookSpec.inputsOf(data);

        assertThat(inputs.keySet()).containsExactly("webhook_data", "webhook_headers", "webhook_query_params",
                "webhook_body");
        assertThat(inputs.get("webhook_data")).isSameAs(data);
        assertThat(inputs.get("webhook_query_params")).isEqualTo(Map.of("q", "1"));
        assertThat(inputs.get("webhook_headers")).isEqualTo(Map.of());
        assertThat(inputs.get("webhook_body")).isEqualTo(Map.of());
        assertThat(WebhookSpec.inputsOf(new HashMap<>()).get("webhook_body")).isEqualTo(Map.of());
    }

    @Test
    void noResponseTextAnswersDifysSuccessMessageWithTheConfiguredStatus() {
        WebhookSpec.Response response = spec("status_code", 202).response();

        assertThat(response.status()).isEqualTo(202);
        assertThat(response.isJsonText()).isFalse();
        assertThat(response.body()).isEqualTo(Map.of("status", "success", "message", "Webhook processed successfully"));
        assertThat(response.body().keySet()).containsExactly("status", "message");
    }

    @Test
    void aResponseTextThatLooksLikeJsonIsLeftForTheCallerToSendAsJson() {
        WebhookSpec.Response object = spec("response_body", "  {\"ok\": true}").response();
        WebhookSpec.Response array = spec("response_body", "[1").response();

        assertThat(object.isJsonText()).isTrue();
        assertThat(object.jsonText()).isEqualTo("  {\"ok\": true}");
        assertThat(object.body()).isNull();
        assertThat(array.isJsonText()).isTrue();
        assertThat(array.fallbackBody()).as("what Dify answers when the text does not parse")
                .isEqualTo(Map.of("message", "[1"));
    }

    @Test
    void anyOtherResponseTextIsSentAsTheMessage() {
        WebhookSpec.Response response = spec("response_body", "Thanks!").response();

        assertThat(response.isJsonText()).isFalse();
        assertThat(response.body()).isEqualTo(Map.of("message", "Thanks!"));
    }
}
