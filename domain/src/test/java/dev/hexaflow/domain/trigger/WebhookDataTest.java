package dev.hexaflow.domain.trigger;

import static dev.hexaflow.domain.trigger.TestSpecs.param;
import static dev.hexaflow.domain.trigger.TestSpecs.spec;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigInteger;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.assertj.core.api.AbstractThrowableAssert;
import org.junit.jupiter.api.Test;

/** A call checked as Dify's WebhookService checks it: its refusals word for word, and the webhook_data it keeps. */
class WebhookDataTest {

    private static final WebhookSpec POST_JSON = spec("method", "POST");

    private static AbstractThrowableAssert<?, ?> refusal(WebhookSpec spec, TestCall call, String message) {
        return assertThatThrownBy(() -> spec.webhookData(call.build()))
                .isInstanceOf(WebhookRefusal.class)
                .hasFieldOrPropertyWithValue("status", 400)
                .hasMessage(message);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> part(WebhookSpec spec, TestCall call, String key) {
        return (Map<String, Object>) spec.webhookData(call.build()).get(key);
    }

    private static Map<String, Object> json(Object... keysAndValues) {
        Map<String, Object> map = new LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            map.put((String) keysAndValues[i], keysAndValues[i + 1]);
        }
        return map;
    }

    @Test
    void aCallWithAnotherMethodIsRefusedNamingBothInUpperCase() {
        refusal(POST_JSON, TestCall.of("get"), "HTTP method mismatch. Expected POST, got GET");
    }

    @Test
    void aCallWithAnotherContentTypeIsRefusedNamingItWithoutItsParameters() {
        refusal(POST_JSON, TestCall.of("POST").contentType("Text/Plain; charset=utf-8"),
                "Content-type mismatch. Expected application/json, got text/plain");
    }

    @Test
    void aCallWithoutContentTypeIsReadAsJson() {
        assertThat(part(POST_JSON, TestCall.of("POST").body(json("a", 1)), "body")).isEqualTo(Map.of("a", 1));
        refusal(spec("method", "post", "content_type", "application/x-www-form-urlencoded"), TestCall.of("POST"),
                "Content-type mismatch. Expected application/x-www-form-urlencoded, got application/json");
    }

    @Test
    void aRequiredHeaderIsFoundInAnyCaseAndWithUnderscoresForDashesElseRefused() {
        WebhookSpec spec = spec("method", "POST", "headers", List.of(param("X-Api-Key", "string", true)));

        assertThat(part(spec, TestCall.of("POST").header("x-api-key", "k"), "headers"))
                .isEqualTo(Map.of("X-Api-Key", "k"));
        assertThat(part(spec, TestCall.of("POST").header("X_API_KEY", "k"), "headers")).containsKey("X-Api-Key");
        refusal(spec, TestCall.of("POST").header("X-Api", "k"), "Required header missing: X-Api-Key");
    }

    @Test
    void aRequiredQueryParameterMissingIsRefusedAndUnconfiguredOnesKeepTheirFirstValueAsText() {
        WebhookSpec spec = spec("params", List.of(param("page", "number", true)));

        refusal(spec, TestCall.of("GET").query("other", "x"), "Required parameter missing: page");
        assertThat(part(spec, TestCall.of("GET").query("page", "2").query("tag", "a", "b"), "query_params"))
                .isEqualTo(Map.of("page", 2L, "tag", "a"));
    }

    @Test
    void aNumberFromTheQueryIsALongWhenWholeElseADoubleAsPythonsFloatReadsIt() {
        WebhookSpec spec = spec("params", List.of(param("n", "number", false)));
        Map<String, Object> read = new LinkedHashMap<>();
        for (String text : List.of("3", " 2.5 ", "1e3", "-0", "1_000", "-.5", "inf", "123456789012345678901")) {
            read.put(text, part(spec, TestCall.of("GET").query("n", text), "query_params").get("n"));
        }

        assertThat(read).containsEntry("3", 3L).containsEntry(" 2.5 ", 2.5).containsEntry("1e3", 1000L)
                .containsEntry("-0", 0L).containsEntry("1_000", 1000L).containsEntry("-.5", -0.5)
                .containsEntry("inf", Double.POSITIVE_INFINITY)
                .containsEntry("123456789012345678901", new BigInteger("123456789012345683968"));
        for (String text : List.of("abc", "0x10", "1d", "1__0", "")) {
            refusal(spec, TestCall.of("GET").query("n", text),
                    "Parameter 'n' validation failed: Cannot convert '" + text + "' to number");
        }
    }

    @Test
    void aBooleanFromTheQueryIsTrueFalseOneNoughtYesOrNoInAnyCase() {
        WebhookSpec spec = spec("params", List.of(param("on", "boolean", false)));

        assertThat(List.of("TRUE", "false", "1", "0", "Yes", "no").stream()
                .map(text -> part(spec, TestCall.of("GET").query("on", text), "query_params").get("on")))
                .containsExactly(true, false, true, false, true, false);
        refusal(spec, TestCall.of("GET").query("on", "maybe"),
                "Parameter 'on' validation failed: Cannot convert 'maybe' to boolean");
    }

    @Test
    void aJsonValueOfTheWrongTypeIsRefusedNamingItsPythonType() {
        WebhookSpec spec = spec("method", "POST", "body", List.of(param("count", "number", false),
                param("tags", "array[string]", false), param("meta", "object", false), param("name", "string", false)));

        refusal(spec, TestCall.of("POST").body(json("count", "3")),
                "Parameter 'count' validation failed: Expected number, got str");
        refusal(spec, TestCall.of("POST").body(json("tags", List.of("a", 1))),
                "Parameter 'tags' validation failed: Expected array of strings, got list");
        refusal(spec, TestCall.of("POST").body(json("meta", null)),
                "Parameter 'meta' validation failed: Expected object, got NoneType");
        refusal(spec, TestCall.of("POST").body(json("name", 1.5)),
                "Parameter 'name' validation failed: Expected string, got float");
        refusal(spec, TestCall.of("POST").body(json("name", false)),
                "Parameter 'name' validation failed: Expected string, got bool");
        assertThat(part(spec, TestCall.of("POST").body(json("count", true, "extra", List.of())), "body"))
                .as("Python's bool is an int, so Dify takes it as a number").isEqualTo(json("count", true,
                        "extra", List.of()));
    }

    @Test
    void aRequiredBodyFieldMissingIsRefused() {
        refusal(spec("method", "POST", "body", List.of(param("name", "string", true))),
                TestCall.of("POST").body(json("other", "x")), "Required body parameter missing: name");
    }

    @Test
    void aJsonBodyThatIsNotAnObjectIsRefused() {
        refusal(POST_JSON, TestCall.of("POST").body(List.of(1)), "Invalid JSON body: expected an object, got list");
    }

    @Test
    void aTextBodyIsKeptWholeAsRawAndARequiredOneMayNotBeEmpty() {
        WebhookSpec spec = spec("method", "POST", "content_type", "text/plain",
                "body", List.of(param("text", "string", true)));

        assertThat(part(spec, TestCall.of("POST").contentType("text/plain").body("hello"), "body"))
                .isEqualTo(Map.of("raw", "hello"));
        assertThat(part(spec, TestCall.of("POST").contentType("text/plain").raw("from bytes"), "body"))
                .isEqualTo(Map.of("raw", "from bytes"));
        refusal(spec, TestCall.of("POST").contentType("text/plain"),
                "Required body content missing for text/plain request");
    }

    @Test
    void formFieldsAreConvertedFromTextAndATypeAFormCannotCarryIsRefused() {
        WebhookSpec spec = spec("method", "POST", "content_type", "application/x-www-form-urlencoded",
                "body", List.of(param("n", "number", false), param("meta", "object", false)));
        TestCall call = TestCall.of("POST").contentType("application/x-www-form-urlencoded");

        assertThat(part(spec, call.body(Map.of("n", "4")), "body")).isEqualTo(Map.of("n", 4L));
        refusal(spec, call.body(Map.of("meta", "{}")),
                "Parameter 'meta' validation failed: Unsupported type 'object' for form data parameter 'meta'");
    }

    @Test
    void aMultipartFileIsNeitherRequiredNorCheckedAndTheFilesPassThrough() {
        WebhookSpec spec = spec("method", "POST", "content_type", "multipart/form-data",
                "body", List.of(param("doc", "file", true), param("note", "string", false)));
        Map<String, Object> stored = Map.of("doc", Map.of("id", "f1"));

        Map<String, Object> data = spec.webhookData(TestCall.of("POST")
                .contentType("multipart/form-data; boundary=x").body(Map.of("note", "hi")).files(stored).build());

        assertThat(data.get("body")).isEqualTo(Map.of("note", "hi"));
        assertThat(data.get("files")).isEqualTo(stored);
    }

    @Test
    void webhookDataHoldsTheMethodTitleCasedHeadersQueryBodyAndFilesInDifysOrder() {
        Map<String, Object> data = POST_JSON.webhookData(TestCall.of("post").header("content-type",
                "application/json").header("x-trace-id", "a", "b").query("q", "1").body(json("k", "v")).build());

        assertThat(data).containsOnlyKeys("method", "headers", "query_params", "body", "files");
        assertThat(data.keySet()).containsExactly("method", "headers", "query_params", "body", "files");
        assertThat(data.get("method")).isEqualTo("POST");
        assertThat(data.get("headers")).isEqualTo(Map.of("Content-Type", "application/json", "X-Trace-Id", "a, b"));
        assertThat(data.get("query_params")).isEqualTo(Map.of("q", "1"));
        assertThat(data.get("files")).isEqualTo(Map.of());
    }
}
