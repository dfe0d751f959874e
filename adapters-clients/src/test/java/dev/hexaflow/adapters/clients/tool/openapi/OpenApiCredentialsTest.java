package dev.hexaflow.adapters.clients.tool.openapi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.sun.net.httpserver.HttpServer;
import dev.hexaflow.adapters.nodes.fakes.FakeHttpTarget;
import dev.hexaflow.adapters.nodes.net.OutboundExchange;
import dev.hexaflow.domain.net.OutboundPolicy;
import dev.hexaflow.domain.tool.ApiCredential;
import dev.hexaflow.domain.tool.ToolBinding;
import dev.hexaflow.domain.tool.ToolMessage;
import dev.hexaflow.domain.tool.ToolProviderType;
import dev.hexaflow.domain.tool.ToolRef;
import dev.hexaflow.workflow.engine.StopSignal;
import dev.hexaflow.workflow.port.out.ToolRunner.ToolException;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * An api tool's credential, against an API on loopback that answers 401 without its key; and what a redirect to
 * another origin (a second server on another port) is sent.
 */
class OpenApiCredentialsTest {

    private static final String KEY = "s3cr3t-key";

    /** Answers {@code {"ok": true}} to a request with the key (as a bearer token, or {@code ?key=}), 401 without. */
    private static final class KeyedApi implements AutoCloseable {
        final HttpServer server;
        final List<String> authorizations = new CopyOnWriteArrayList<>();

        KeyedApi() throws IOException {
            server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
            server.createContext("/", exchange -> {
                try (exchange) {
                    String authorization = exchange.getRequestHeaders().getFirst("Authorization");
                    String query = exchange.getRequestURI().getRawQuery();
                    authorizations.add(String.valueOf(authorization));
                    boolean keyed = ("Bearer " + KEY).equals(authorization)
                            || query != null && List.of(query.split("&")).contains("key=" + KEY);
                    byte[] body = (keyed ? "{\"ok\":true}" : "{\"error\":\"invalid key\"}")
                            .getBytes(StandardCharsets.UTF_8);
                    exchange.getResponseHeaders().set("Content-Type", "application/json");
                    exchange.sendResponseHeaders(keyed ? 200 : 401, body.length);
                    exchange.getResponseBody().write(body);
                }
            });
            server.start();
        }

        String url() {
            return "http://127.0.0.1:" + server.getAddress().getPort();
        }

        @Override
        public void close() {
            server.stop(0);
        }
    }

    private static String document(String server) {
        return """
                openapi: 3.0.1
                info: {title: Keyed, version: "1"}
                servers:
                  - url: %s
                paths:
                  /forecast:
                    get:
                      operationId: forecast
                      parameters:
                        - {name: city, in: query, schema: {type: string}}
                  /redirect/{status}:
                    get:
                      operationId: redirected
                      parameters:
                        - {name: status, in: path, required: true, schema: {type: string}}
                        - {name: to, in: query, required: true, schema: {type: string}}
                        - {name: X-Trace, in: header, schema: {type: string}}
                """.formatted(server);
    }

    private final FakeHttpTarget documents = new FakeHttpTarget();
    private final FakeHttpTarget elsewhere = new FakeHttpTarget();
    private final ToolRef tool = new ToolRef(ToolProviderType.API, "weather", "forecast");

    @AfterEach
    void close() {
        documents.close();
        elsewhere.close();
    }

    private JacksonOpenApiToolRunner boundTo(String document, String operation, ApiCredential credential) {
        ToolBinding.OpenApiOperation target = new ToolBinding.OpenApiOperation(document, operation, credential);
        return new JacksonOpenApiToolRunner(ref -> ref.equals(tool) ? Optional.of(target) : Optional.empty(),
                new OutboundExchange(() -> OutboundPolicy.of("127.0.0.1", "")), Duration.ofSeconds(5));
    }

    @Test
    void aBearerKeyInTheAuthorizationHeaderIsWhatTheKeyedApiAccepts() throws IOException {
        try (KeyedApi api = new KeyedApi()) {
            String document = documents.serve("keyed.yaml", "application/yaml",
                    document(api.url()).getBytes(StandardCharsets.UTF_8));

            List<ToolMessage> messages = boundTo(document, "forecast", new ApiCredential.ApiKeyHeader(
                    "Authorization", ApiCredential.Prefix.BEARER, KEY)).run(tool, Map.of("city", "Oslo"),
                    StopSignal.NEVER);

            assertThat(messages).contains(new ToolMessage.Text("{\"ok\":true}"));
            assertThat(api.authorizations).containsExactly("Bearer " + KEY);
            assertThat(documents.seen()).as("the document's own server is not sent the key")
                    .allMatch(call -> !call.headers().containsKey("authorization"));
        }
    }

    @Test
    void aKeyInTheQueryReplacesAnArgumentOfItsName() throws IOException {
        try (KeyedApi api = new KeyedApi()) {
            List<ToolMessage> messages = boundTo(document(api.url()), "forecast", new ApiCredential.ApiKeyQuery(
                    "key", KEY)).run(tool, Map.of("city", "Oslo", "key", "guessed"), StopSignal.NEVER);

            assertThat(messages).contains(new ToolMessage.Text("{\"ok\":true}"));
        }
    }

    @Test
    void withoutTheKeyTheApisRefusalFailsTheToolAndTheErrorDoesNotCarryAKey() throws IOException {
        try (KeyedApi api = new KeyedApi()) {
            assertThatThrownBy(() -> boundTo(document(api.url()), "forecast", new ApiCredential.None())
                    .run(tool, Map.of(), StopSignal.NEVER)).isInstanceOf(ToolException.class)
                    .hasMessage("Request failed with status code 401 and {\"error\":\"invalid key\"}");
            assertThatThrownBy(() -> boundTo(document(api.url()), "forecast", new ApiCredential.ApiKeyHeader(
                    null, ApiCredential.Prefix.BASIC, KEY)).run(tool, Map.of(), StopSignal.NEVER))
                    .hasMessageNotContaining(KEY);
            assertThat(api.authorizations).containsExactly("null", "Basic " + KEY);
        }
    }

    @Test
    void aQueryKeyIsNotInTheErrorOfAnApiThatCannotBeReached() throws IOException {
        int closed;
        try (java.net.ServerSocket socket = new java.net.ServerSocket(0)) {
            closed = socket.getLocalPort();
        }
        ToolException error = catchThrowableOfType(ToolException.class, () -> boundTo(
                document("http://127.0.0.1:" + closed), "forecast", new ApiCredential.ApiKeyQuery("key", KEY))
                .run(tool, Map.of("city", "Oslo"), StopSignal.NEVER));

        assertThat(error.getMessage()).startsWith("Cannot connect to http://127.0.0.1:" + closed + "/forecast")
                .doesNotContain(KEY);
    }

    @Test
    void anApisAnswerThatEchoesTheKeyHasItMaskedInTheError() {
        ToolException error = JacksonOpenApiToolRunner.withoutSecret(new ToolException(
                "Request failed with status code 403 and {\"key\": \"" + KEY + "\"}"),
                new ApiCredential.ApiKeyQuery("key", KEY));

        assertThat(error.getMessage()).isEqualTo("Request failed with status code 403 and {\"key\": \"***\"}");
    }

    @Test
    void aRedirectToAnotherOriginGoesWithoutTheHeaderParametersAndTheKey() {
        String target = elsewhere.url("/echo");

        boundTo(document(documents.url("")), "redirected", new ApiCredential.ApiKeyHeader("X-Api-Key",
                ApiCredential.Prefix.CUSTOM, KEY)).run(tool, Map.of("status", "307", "to", target, "X-Trace", "t-1"),
                StopSignal.NEVER);

        FakeHttpTarget.Seen first = documents.seen().get(0);
        assertThat(first.headers()).containsEntry("x-api-key", KEY).containsEntry("x-trace", "t-1");
        FakeHttpTarget.Seen followed = elsewhere.seen().get(0);
        assertThat(followed.uri()).isEqualTo("/echo");
        assertThat(followed.headers()).doesNotContainKeys("x-api-key", "x-trace", "authorization");
    }

    @Test
    void aRedirectWithinTheSameOriginKeepsThem() {
        boundTo(document(documents.url("")), "redirected", new ApiCredential.ApiKeyHeader("X-Api-Key",
                ApiCredential.Prefix.CUSTOM, KEY)).run(tool, Map.of("status", "302", "to", documents.url("/echo"),
                "X-Trace", "t-1"), StopSignal.NEVER);

        assertThat(documents.seen()).hasSize(2);
        assertThat(documents.seen().get(1).headers()).containsEntry("x-api-key", KEY).containsEntry("x-trace",
                "t-1");
    }
}
