package dev.hexaflow.adapters.clients.tool.openapi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hexaflow.adapters.nodes.fakes.FakeHttpTarget;
import dev.hexaflow.adapters.nodes.net.OutboundExchange;
import dev.hexaflow.application.tools.port.out.OpenApiDocuments.UnusableOperationException;
import dev.hexaflow.domain.net.OutboundPolicy;
import dev.hexaflow.domain.tool.ToolBinding;
import dev.hexaflow.domain.tool.ToolMessage;
import dev.hexaflow.domain.tool.ToolProviderType;
import dev.hexaflow.domain.tool.ToolRef;
import dev.hexaflow.workflow.engine.StopSignal;
import dev.hexaflow.workflow.port.out.ToolRunner.ToolException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Api tools against an OpenAPI document and its API, both served by a real HTTP server on loopback. */
class JacksonOpenApiToolRunnerTest {

    /** The operations a test binds; the API is FakeHttpTarget, which keeps each request and answers JSON. */
    static String document(String server) {
        return """
                openapi: 3.0.1
                info: {title: Shop, version: "1"}
                servers:
                  - url: %s
                paths:
                  /shops/{shop}/items:
                    parameters:
                      - {name: shop, in: path, required: true, schema: {type: string}}
                    get:
                      operationId: listItems
                      summary: Lists a shop's items
                      parameters:
                        - {name: q, in: query, schema: {type: string}}
                        - {name: limit, in: query, schema: {type: integer, default: 10}}
                        - {name: X-Trace, in: header, required: true, schema: {type: string}}
                    post:
                      operationId: addItem
                      requestBody:
                        content:
                          application/json:
                            schema: {$ref: '#/components/schemas/NewItem'}
                  /status/500:
                    get: {operationId: breaks}
                  /status/204:
                    get: {operationId: answersNothing}
                components:
                  schemas:
                    NewItem:
                      type: object
                      required: [name]
                      properties:
                        name: {type: string}
                        count: {type: integer}
                        tags: {type: array}
                        colour: {type: string, default: red}
                """.formatted(server);
    }

    private final FakeHttpTarget api = new FakeHttpTarget();
    private final ToolRef tool = new ToolRef(ToolProviderType.API, "shop-api-id", "items");

    @AfterEach
    void close() {
        api.close();
    }

    private JacksonOpenApiToolRunner boundTo(String document, String operation) {
        ToolBinding.OpenApiOperation target = new ToolBinding.OpenApiOperation(document, operation);
        return new JacksonOpenApiToolRunner(ref -> ref.equals(tool) ? Optional.of(target) : Optional.empty(),
                new OutboundExchange(() -> OutboundPolicy.of("127.0.0.1", "")), Duration.ofSeconds(5));
    }

    private JacksonOpenApiToolRunner unbound() {
        return new JacksonOpenApiToolRunner(ref -> Optional.empty(),
                new OutboundExchange(() -> OutboundPolicy.of("127.0.0.1", "")), Duration.ofSeconds(5));
    }

    private String served() {
        return api.serve("shop.yaml", "application/yaml", document(api.url("")).getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void aHeaderValueWithALineBreakFailsTheCallAsTheToolsErrorAndSendsNothing() {
        JacksonOpenApiToolRunner runner = boundTo(served(), "listItems");

        assertThatThrownBy(() -> runner.run(tool, Map.of("shop", "north", "q", "tea",
                "X-Trace", "t-1\r\nX-Injected: yes"), StopSignal.NEVER))
                .isInstanceOf(dev.hexaflow.workflow.port.out.ToolRunner.ToolException.class)
                .hasMessageContaining("cannot be sent");
        assertThat(api.seen()).noneMatch(call -> call.uri().startsWith("/shops"));
    }

    @Test
    void pathQueryAndHeaderParametersGoWhereTheDocumentSaysToItsServer() {
        JacksonOpenApiToolRunner runner = boundTo(served(), "listItems");

        List<ToolMessage> messages = runner.run(tool, Map.of("shop", "north side", "q", "tea", "X-Trace", "t-1"),
                StopSignal.NEVER);

        FakeHttpTarget.Seen call = api.seen().get(api.seen().size() - 1);
        assertThat(call.method()).isEqualTo("GET");
        assertThat(call.uri()).isEqualTo("/shops/north%20side/items?q=tea&limit=10");
        assertThat(call.headers()).containsEntry("x-trace", "t-1");
        assertThat(messages).containsExactly(new ToolMessage.Json(Map.of("echo", "GET")),
                new ToolMessage.Text("{\"echo\":\"GET\"}"));
    }

    @Test
    void bodyPropertiesGoIntoTheJsonBodyConvertedToTheirTypesWithDefaults() {
        JacksonOpenApiToolRunner runner = boundTo(document(api.url("")), "addItem");

        runner.run(tool, Map.of("shop", "s1", "name", "cup", "count", "3", "tags", "[\"a\"]"), StopSignal.NEVER);

        FakeHttpTarget.Seen call = api.seen().get(0);
        assertThat(call.method()).isEqualTo("POST");
        assertThat(call.uri()).isEqualTo("/shops/s1/items");
        assertThat(call.headers()).containsEntry("content-type", "application/json");
        assertThat(call.body()).isEqualTo("{\"name\":\"cup\",\"count\":3,\"tags\":[\"a\"],\"colour\":\"red\"}");
    }

    @Test
    void aMissingRequiredParameterFailsTheToolBeforeAnyRequest() {
        JacksonOpenApiToolRunner runner = boundTo(document(api.url("")), "addItem");

        assertThatThrownBy(() -> runner.run(tool, Map.of("shop", "s1"), StopSignal.NEVER))
                .isInstanceOf(ToolException.class).hasMessage("Missing required parameter name in operation addItem");
        assertThatThrownBy(() -> boundTo(document(api.url("")), "listItems").run(tool, Map.of("shop", "s1"),
                StopSignal.NEVER)).hasMessage("Missing required parameter X-Trace");
        assertThat(api.seen()).isEmpty();
    }

    @Test
    void aServerThatFailsFailsTheToolWithItsStatusAndText() {
        JacksonOpenApiToolRunner runner = boundTo(document(api.url("")), "breaks");

        assertThatThrownBy(() -> runner.run(tool, Map.of(), StopSignal.NEVER)).isInstanceOf(ToolException.class)
                .hasMessage("Request failed with status code 500 and status 500");
    }

    @Test
    void anEmptyAnswerIsDifysSentence() {
        List<ToolMessage> messages = boundTo(document(api.url("")), "answersNothing").run(tool, Map.of(),
                StopSignal.NEVER);

        assertThat(messages).containsExactly(new ToolMessage.Text(
                "Empty response from the tool, please check your parameters and try again."));
    }

    @Test
    void aServerThatIsDownFailsTheToolClearly() {
        String down = "http://127.0.0.1:1";

        assertThatThrownBy(() -> boundTo(document(down), "breaks").run(tool, Map.of(), StopSignal.NEVER))
                .isInstanceOf(ToolException.class).hasMessageContaining("Cannot connect to http://127.0.0.1:1");
    }

    @Test
    void aServerTheOutboundPolicyRefusesIsNeverCalled() {
        ToolBinding.OpenApiOperation target = new ToolBinding.OpenApiOperation(document(api.url("")), "breaks");
        JacksonOpenApiToolRunner runner = new JacksonOpenApiToolRunner(ref -> Optional.of(target),
                new OutboundExchange(() -> OutboundPolicy.DEFAULT), Duration.ofSeconds(5));

        assertThatThrownBy(() -> runner.run(tool, Map.of(), StopSignal.NEVER)).isInstanceOf(ToolException.class)
                .hasMessageContaining("is not allowed for outbound requests");
        assertThat(api.seen()).isEmpty();
    }

    @Test
    void checkRefusesAnOperationTheDocumentDoesNotHoldNamingThoseItHas() {
        assertThatThrownBy(() -> unbound().check(new ToolBinding.OpenApiOperation(served(), "nope")))
                .isInstanceOf(UnusableOperationException.class)
                .hasMessage("The OpenAPI document has no operation with operationId 'nope'; its operations are: "
                        + "listItems, addItem, breaks, answersNothing");
    }

    @Test
    void checkRefusesADocumentThatDoesNotParseOrIsNotOpenApi3OrIsNotThere() {
        JacksonOpenApiToolRunner runner = unbound();

        assertThatThrownBy(() -> runner.check(new ToolBinding.OpenApiOperation("{not: [json", "x")))
                .isInstanceOf(UnusableOperationException.class).hasMessageStartingWith("The OpenAPI document does "
                        + "not parse as JSON or YAML");
        assertThatThrownBy(() -> runner.check(new ToolBinding.OpenApiOperation("swagger: '2.0'", "x")))
                .hasMessageStartingWith("The document is not an OpenAPI 3 document");
        assertThatThrownBy(() -> runner.check(new ToolBinding.OpenApiOperation(api.url("/status/404"), "x")))
                .hasMessage("Cannot read the OpenAPI document at " + api.url("/status/404")
                        + ": it answered status 404");
    }

    @Test
    void aRelativeServerIsReadAgainstTheDocumentsUrl() {
        String url = api.serve("relative.yaml", "application/yaml", document("/v2").getBytes(StandardCharsets.UTF_8));

        boundTo(url, "listItems").run(tool, Map.of("shop", "s", "X-Trace", "t"), StopSignal.NEVER);

        assertThat(api.seen().get(api.seen().size() - 1).uri()).isEqualTo("/v2/shops/s/items?limit=10");
    }

    @Test
    void theDescriptionOffersEveryParameterAndBodyPropertyWithTheRequiredOnes() {
        JacksonOpenApiToolRunner runner = boundTo(document(api.url("")), "listItems");

        assertThat(runner.runs(tool)).isTrue();
        assertThat(runner.describe(tool)).hasValueSatisfying(description -> {
            assertThat(description.description()).isEqualTo("Lists a shop's items");
            assertThat(List.copyOf(((Map<?, ?>) description.inputSchema().get("properties")).keySet())).isEqualTo(List.of("shop", "q",
                    "limit", "X-Trace"));
            assertThat(description.inputSchema()).containsEntry("required", List.of("shop", "X-Trace"));
        });
    }
}
