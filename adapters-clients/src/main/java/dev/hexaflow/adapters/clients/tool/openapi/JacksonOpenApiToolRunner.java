package dev.hexaflow.adapters.clients.tool.openapi;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.hexaflow.adapters.nodes.net.OnFirstUseHttpClient;
import dev.hexaflow.adapters.nodes.net.OutboundExchange;
import dev.hexaflow.application.tools.port.out.OpenApiDocuments;
import dev.hexaflow.domain.tool.ApiCredential;
import dev.hexaflow.domain.tool.ToolBinding;
import dev.hexaflow.domain.tool.ToolDescription;
import dev.hexaflow.domain.tool.ToolMessage;
import dev.hexaflow.domain.tool.ToolRef;
import dev.hexaflow.workflow.engine.StopSignal;
import dev.hexaflow.workflow.port.out.ToolRunner;
import java.io.IOException;
import java.io.InputStream;
import java.net.ConnectException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.UnknownHostException;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.function.Function;

/**
 * Runs Dify's api tools (custom tools described by OpenAPI) bound to an operation of an OpenAPI 3 document, as
 * Dify's {@code ApiTool} does: each parameter goes where the document says (path, query, header, cookie), the
 * body's properties into the request body of the operation's first content type, to the document's first server;
 * the answer is the response's text, preceded by its object as a JSON message when it is a JSON object.
 *
 * <p>Jackson reads the document (JSON or YAML) and the few {@code $ref}s an operation uses (to
 * {@code components/parameters}, {@code requestBodies} and {@code schemas}), the way Dify's own parser reads it;
 * a full OpenAPI library (swagger-parser) would bring some twenty jars to resolve what a tool call never needs.
 * Every request, the document's fetch included, goes through the outbound policy.
 */
public final class JacksonOpenApiToolRunner implements ToolRunner, OpenApiDocuments {

    /** The largest document or response read. */
    private static final int MAX_BYTES = 10 * 1024 * 1024;
    /** How long a document fetched by URL is used before it is read again. */
    private static final long DOCUMENT_TTL_NANOS = Duration.ofMinutes(1).toNanos();
    private static final int MAX_CACHED = 64;
    private static final String EMPTY = "Empty response from the tool, please check your parameters and try again.";
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Function<ToolRef, Optional<ToolBinding.OpenApiOperation>> bindings;
    private final OutboundExchange outbound;
    private final Duration timeout;
    private final HttpClient client;
    private final Map<String, Fetched> documents = new ConcurrentHashMap<>();

    private record Fetched(OpenApiDocument document, long at) {
    }

    /**
     * @param bindings where each tool is bound, read at each call
     * @param timeout  for each request, the document's fetch included
     */
    public JacksonOpenApiToolRunner(Function<ToolRef, Optional<ToolBinding.OpenApiOperation>> bindings,
            OutboundExchange outbound, Duration timeout) {
        this.bindings = bindings;
        this.outbound = outbound;
        this.timeout = timeout;
        this.client = OnFirstUseHttpClient.of(HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER)
                .connectTimeout(timeout));
    }

    /** From the binding alone, so that an import never waits on a document's server. */
    @Override
    public boolean runs(ToolRef tool) {
        return bindings.apply(tool).isPresent();
    }

    @Override
    public Optional<ToolDescription> describe(ToolRef tool) {
        return bindings.apply(tool).map(binding -> {
            try {
                OpenApiOperation operation = operation(binding);
                return new ToolDescription(tool, operation.summary(), operation.inputSchema());
            } catch (UnusableOperationException e) {
                return new ToolDescription(tool, e.getMessage(), Map.of("type", "object"));
            }
        });
    }

    @Override
    public void check(ToolBinding.OpenApiOperation operation) {
        operation(operation);
    }

    @Override
    public List<ToolMessage> run(ToolRef tool, Map<String, Object> arguments, StopSignal stop) {
        ToolBinding.OpenApiOperation binding = bindings.apply(tool).orElseThrow(() -> new ToolException(
                "the tool " + tool.label() + " is not bound to an OpenAPI operation"));
        OpenApiOperation operation;
        try {
            operation = operation(binding);
        } catch (UnusableOperationException e) {
            throw new ToolException(e.getMessage());
        }
        try {
            return call(operation, arguments, binding.credential(), stop);
        } catch (ToolException e) {
            // The error becomes the node's and the run's, which end users see: the key must not be in it.
            throw withoutSecret(e, binding.credential());
        }
    }

    private List<ToolMessage> call(OpenApiOperation operation, Map<String, Object> arguments,
            ApiCredential credential, StopSignal stop) {
        OutboundExchange.Outgoing request;
        try {
            request = operation.request(arguments, credential);
        } catch (IllegalArgumentException e) {
            throw new ToolException(e.getMessage());
        }
        Answer answer = exchange(request, stop);
        if (answer.status() >= 400) {
            throw new ToolException("Request failed with status code " + answer.status() + " and " + answer.text());
        }
        String disposition = answer.header("content-disposition").strip().toLowerCase(Locale.ROOT);
        if (disposition.startsWith("attachment")) {
            throw new ToolException("The API answered a file (Content-Disposition: attachment); api tools here "
                    + "answer text and JSON only");
        }
        if (answer.bytes().length == 0) {
            return List.of(new ToolMessage.Text(EMPTY));
        }
        if (answer.header("content-type").toLowerCase(Locale.ROOT).contains("application/json")) {
            try {
                JsonNode parsed = JSON.readTree(answer.bytes());
                if (parsed != null && parsed.isObject()) {
                    return List.of(new ToolMessage.Json(JSON.convertValue(parsed, Map.class)),
                            new ToolMessage.Text(answer.text()));
                }
            } catch (IOException e) {
                // Not JSON after all: its text, as Dify gives it.
            }
        }
        return List.of(new ToolMessage.Text(answer.text()));
    }

    /** A response read whole (up to {@link #MAX_BYTES}). */
    private record Answer(int status, HttpResponse<InputStream> response, byte[] bytes) {
        String text() {
            return new String(bytes, StandardCharsets.UTF_8);
        }

        String header(String name) {
            return response.headers().firstValue(name).orElse("");
        }
    }

    private Answer exchange(OutboundExchange.Outgoing request, StopSignal stop) {
        try {
            HttpResponse<InputStream> response = outbound.send(client, request, timeout, stop);
            try (InputStream body = response.body()) {
                byte[] bytes = body.readNBytes(MAX_BYTES + 1);
                if (bytes.length > MAX_BYTES) {
                    throw new ToolException("The answer of " + shown(request.uri()) + " is larger than " + MAX_BYTES
                            + " bytes");
                }
                return new Answer(response.statusCode(), response, bytes);
            }
        } catch (OutboundExchange.RefusedException e) {
            throw new ToolException(e.getMessage());
        } catch (IllegalArgumentException e) {
            // A header or cookie value with a line break (a model may well write one) is no request at all.
            throw new ToolException("The request to " + shown(request.uri()) + " cannot be sent: " + e.getMessage());
        } catch (UnknownHostException e) {
            throw new ToolException("The host of " + shown(request.uri()) + " does not resolve");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ToolException("stopped");
        } catch (CancellationException e) {
            throw new ToolException("stopped");
        } catch (ExecutionException e) {
            throw failed(shown(request.uri()), e.getCause());
        } catch (IOException e) {
            throw failed(shown(request.uri()), e);
        }
    }

    private ToolException failed(String uri, Throwable cause) {
        if (cause instanceof HttpTimeoutException) {
            return new ToolException("The API at " + uri + " did not answer within " + timeout.toSeconds() + " s");
        }
        if (cause instanceof ConnectException) {
            return new ToolException("Cannot connect to " + uri);
        }
        if (cause instanceof CancellationException) {
            return new ToolException("stopped");
        }
        return new ToolException("The request to " + uri + " failed: " + cause, cause);
    }

    /** A request's address as an error shows it: without its query, where a key or an argument may be. */
    static String shown(URI uri) {
        return uri.getScheme() + "://" + uri.getRawAuthority() + (uri.getRawPath() == null ? "" : uri.getRawPath());
    }

    /** The error with the credential's value, as given and as URL-encoded, written as "***". */
    static ToolException withoutSecret(ToolException error, ApiCredential credential) {
        String secret = credential instanceof ApiCredential.ApiKeyQuery query ? query.value()
                : credential instanceof ApiCredential.ApiKeyHeader header ? header.value() : null;
        String message = error.getMessage();
        if (secret == null || secret.isEmpty() || message == null) {
            return error;
        }
        String scrubbed = message.replace(secret, "***")
                .replace(URLEncoder.encode(secret, StandardCharsets.UTF_8), "***");
        return scrubbed.equals(message) ? error : new ToolException(scrubbed);
    }

    private OpenApiOperation operation(ToolBinding.OpenApiOperation binding) {
        return document(binding).operation(binding.operation());
    }

    /** The document, parsed; one given by URL is fetched again once it is a minute old. */
    private OpenApiDocument document(ToolBinding.OpenApiOperation binding) {
        long now = System.nanoTime();
        Fetched cached = documents.get(binding.document());
        if (cached != null && (!binding.byUrl() || now - cached.at() < DOCUMENT_TTL_NANOS)) {
            return cached.document();
        }
        OpenApiDocument document = binding.byUrl() ? fetch(URI.create(binding.document()))
                : OpenApiDocument.parse(binding.document(), null);
        if (documents.size() >= MAX_CACHED) {
            documents.clear();
        }
        documents.put(binding.document(), new Fetched(document, now));
        return document;
    }

    private OpenApiDocument fetch(URI url) {
        Answer answer;
        try {
            answer = exchange(new OutboundExchange.Outgoing(url, "GET", List.of(Map.entry("Accept",
                    "application/json, application/yaml, text/yaml, */*")), null), StopSignal.NEVER);
        } catch (ToolException e) {
            throw new UnusableOperationException("Cannot read the OpenAPI document at " + url + ": "
                    + e.getMessage());
        }
        if (answer.status() != 200) {
            throw new UnusableOperationException("Cannot read the OpenAPI document at " + url + ": it answered "
                    + "status " + answer.status());
        }
        return OpenApiDocument.parse(answer.text(), url);
    }

    /** Percent-encodes a form or query value as Python's urlencode does (a space as {@code +}). */
    static String formEncoded(Map<String, Object> values) {
        List<String> pairs = new ArrayList<>();
        values.forEach((name, value) -> pairs.add(URLEncoder.encode(name, StandardCharsets.UTF_8) + "="
                + URLEncoder.encode(OpenApiOperation.pythonStr(value), StandardCharsets.UTF_8)));
        return String.join("&", pairs);
    }

    /** The arguments as the body's JSON. */
    static byte[] jsonBody(Map<String, Object> values) {
        try {
            return JSON.writeValueAsBytes(new LinkedHashMap<>(values));
        } catch (IOException e) {
            throw new IllegalArgumentException("The body cannot be written as JSON: " + e.getMessage());
        }
    }
}
