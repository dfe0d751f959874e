package dev.hexaflow.adapters.nodes.model;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.hexaflow.adapters.nodes.net.Http1Client;
import dev.hexaflow.adapters.nodes.net.NetworkFailures;
import dev.hexaflow.adapters.nodes.net.OutageLog;
import dev.hexaflow.workflow.engine.StopSignal;
import dev.hexaflow.workflow.port.out.ModelProvider;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Any OpenAI-compatible chat-completions endpoint ({@code POST {base}/chat/completions}, streamed as server-sent
 * events). The DSL's model name is sent as it is unless the configuration maps it: first by
 * {@code provider/model}, then by provider, then by {@code *}.
 */
public final class OpenAiCompatibleModelProvider implements ModelProvider {

    private static final ObjectMapper JSON = new ObjectMapper();
    /** What is read after a stream's {@code [DONE]} to keep its connection (a chunked body's end is 5 bytes). */
    private static final int MOST_AFTER_DONE = 4096;
    /** How long what follows {@code [DONE]} may take to arrive before the stream is closed instead. */
    private static final java.time.Duration DRAIN_WAIT = java.time.Duration.ofSeconds(1);
    /** Closes the streams whose rest did not arrive in time. */
    private static final java.util.concurrent.ScheduledExecutorService DRAIN_TIMEOUTS = java.util.concurrent
            .Executors.newSingleThreadScheduledExecutor(runnable -> daemon(runnable, "hexaflow-model-drain-timeout"));
    /** Shared by every provider of the process: one endpoint down is one line, whichever caller found it. */
    private static final OutageLog OUTAGES = new OutageLog("model endpoint");

    private final URI baseUrl;
    /** The address without its trailing slashes, as requests and errors use it; and as a log line shows it. */
    private final String base;
    private final String shown;
    private final String apiKey;
    private final Map<String, String> models;
    private final Duration firstByteTimeout;
    private final ModelCall call;
    private final Set<String> jsonSchemaModels;

    public OpenAiCompatibleModelProvider(URI baseUrl, String apiKey, Map<String, String> models,
            Duration connectTimeout, Duration firstByteTimeout) {
        this(baseUrl, apiKey, models, Set.of(), connectTimeout, firstByteTimeout);
    }

    /**
     * @param jsonSchemaModels the models that take a JSON schema as {@code response_format}, named as the DSL
     *     names them: {@code provider/model}, a whole {@code provider}, or {@code *} for all
     */
    public OpenAiCompatibleModelProvider(URI baseUrl, String apiKey, Map<String, String> models,
            Set<String> jsonSchemaModels, Duration connectTimeout, Duration firstByteTimeout) {
        this.baseUrl = baseUrl;
        this.base = baseUrl == null ? null : baseUrl.toString().replaceAll("/+$", "");
        this.shown = OutageLog.shown(baseUrl);
        this.apiKey = apiKey;
        this.models = models == null ? Map.of() : Map.copyOf(models);
        this.jsonSchemaModels = jsonSchemaModels == null ? Set.of() : Set.copyOf(jsonSchemaModels);
        this.firstByteTimeout = firstByteTimeout;
        this.call = new ModelCall(ModelEndpoint.client(connectTimeout), new Http1Client(connectTimeout));
    }

    @Override
    public boolean isConfigured() {
        return baseUrl != null;
    }

    @Override
    public boolean takesJsonSchema(String provider, String model) {
        return jsonSchemaModels.contains(provider + "/" + model) || jsonSchemaModels.contains(provider)
                || jsonSchemaModels.contains("*");
    }

    String modelFor(String provider, String model) {
        return models.getOrDefault(provider + "/" + model, models.getOrDefault(provider,
                models.getOrDefault("*", model)));
    }

    @Override
    public ChatResult chat(ChatRequest request, Consumer<String> onText, StopSignal stop) {
        if (baseUrl == null) {
            throw new ModelException("No model endpoint is configured", null);
        }
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("Content-Type", "application/json");
        headers.put("Accept", "text/event-stream");
        if (apiKey != null && !apiKey.isBlank()) {
            headers.put("Authorization", "Bearer " + apiKey);
        }
        byte[] body = ChatRequestBody.of(request, modelFor(request.provider(), request.model()))
                .getBytes(StandardCharsets.UTF_8);
        ModelCall.Answer answer;
        try {
            answer = call.post(URI.create(base + "/chat/completions"), headers, body, firstByteTimeout, stop);
        } catch (ModelCall.Unreachable e) {
            if (stop.isStopped()) {
                throw new ModelException("The model call was stopped", e.getCause());
            }
            OUTAGES.failed(shown, "it cannot be reached: " + NetworkFailures.reason(e.getCause()));
            throw new ModelException(prefix(request) + "the model endpoint " + base + " cannot be reached: "
                    + NetworkFailures.reason(e.getCause()), e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ModelException("The model call was interrupted", e);
        }
        try (answer) {
            return answer(request, answer, onText, stop);
        } catch (ModelException e) {
            throw e;
        } catch (Exception e) {
            if (stop.isStopped()) {
                throw new ModelException("The model call was stopped", e);
            }
            OUTAGES.failed(shown, "it broke off its answer: " + NetworkFailures.reason(e));
            throw new ModelException(prefix(request) + "the model endpoint " + base + " broke off its answer: "
                    + NetworkFailures.reason(e), e);
        }
    }

    /** The completion an answer carries, streamed or whole, or the endpoint's error as Dify words it. */
    private ChatResult answer(ChatRequest request, ModelCall.Answer answer, Consumer<String> onText,
            StopSignal stop) throws IOException {
        heard(answer.status());
        if (answer.status() >= 400) {
            throw new ModelException(error(request, answer.status(), answer.body()), null);
        }
        if (!answer.contentType().startsWith("text/event-stream")) {
            // Some endpoints answer stream=true with one whole completion; anything else is no completion.
            return whole(request, answer.body(), onText);
        }
        ChatResult result = read(answer.body(), answer.keepsConnection(), onText, stop);
        if (result == null) {
            throw new ModelException(prefix(request) + "the model endpoint's stream ended without a completion",
                    null);
        }
        return result;
    }

    /** An answer came: the endpoint is up, unless it answered that it is failing itself (5xx). */
    private void heard(int status) {
        if (status >= 500) {
            OUTAGES.failed(shown, "it answered " + status);
        } else {
            OUTAGES.answered(shown);
        }
    }

    /** Dify's "[provider] Error: " before a model call's failure; "Error: " where the DSL names no provider. */
    private static String prefix(ChatRequest request) {
        String provider = request.provider() == null ? "" : request.provider().strip();
        return provider.isEmpty() ? "Error: " : "[" + provider + "] Error: ";
    }

    /** A whole chat completion in one JSON body, or a clear error when the body is none. */
    private static ChatResult whole(ChatRequest request, InputStream body, Consumer<String> onText)
            throws IOException {
        String text;
        try (InputStream in = body) {
            text = new String(in.readNBytes(16 * 1024 * 1024), StandardCharsets.UTF_8);
        }
        JsonNode completion;
        try {
            completion = JSON.readTree(text);
        } catch (IOException notJson) {
            completion = null;
        }
        JsonNode message = completion == null ? null : completion.path("choices").path(0).path("message");
        if (message == null || !message.isObject()) {
            String head = text.length() > 200 ? text.substring(0, 200) + "…" : text;
            throw new ModelException(prefix(request) + "the model endpoint answered something "
                    + "other than a chat completion: " + head.strip(), null);
        }
        String content = ReasoningText.whole(message);
        if (!content.isEmpty()) {
            onText.accept(content);
        }
        List<ToolCall> toolCalls = new ArrayList<>();
        for (JsonNode call : message.path("tool_calls")) {
            toolCalls.add(new ToolCall(call.path("id").asText(""), call.path("function").path("name").asText(""),
                    call.path("function").path("arguments").asText("")));
        }
        Usage usage = usage(completion.path("usage"), Usage.NONE);
        String finish = completion.path("choices").path(0).path("finish_reason").asText("stop");
        return new ChatResult(content, usage, finish, toolCalls);
    }

    /**
     * The streamed completion, or null when the stream carried no completion at all. The stream is closed at the
     * end; where the endpoint keeps its connections, what follows {@code [DONE]} is read first, so that the
     * connection goes back to the client's pool for the next call instead of being dropped.
     */
    private static ChatResult read(InputStream stream, boolean reusable, Consumer<String> onText, StopSignal stop)
            throws IOException {
        StreamedCompletion completion = new StreamedCompletion();
        try (InputStream body = stream) {
            BufferedReader lines = new BufferedReader(new InputStreamReader(body, StandardCharsets.UTF_8));
            String line;
            while ((line = lines.readLine()) != null) {
                if (stop.isStopped()) {
                    throw new ModelException("The model call was stopped", null);
                }
                if (!line.startsWith("data:")) {
                    continue;
                }
                String data = line.substring(5).strip();
                if (data.equals("[DONE]")) {
                    completion.done();
                    if (reusable) {
                        drainWithin(lines, body);
                    }
                    break;
                }
                completion.add(CompletionChunk.of(data), onText);
            }
        }
        return completion.result();
    }

    /**
     * Reads what follows {@code [DONE]}, waiting at most {@link #DRAIN_WAIT}: the end of a chunked body arrives at
     * once from an endpoint that keeps its connection, which then goes back to the client's pool; an endpoint that
     * sends nothing more has its stream closed (and the connection dropped), so that it never holds the node.
     */
    private static void drainWithin(BufferedReader rest, InputStream body) {
        java.util.concurrent.ScheduledFuture<?> timeout = DRAIN_TIMEOUTS.schedule(() -> ModelCall.closeQuietly(body),
                DRAIN_WAIT.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS);
        try {
            drain(rest);
        } finally {
            timeout.cancel(false);
        }
    }

    /**
     * Reads what follows {@code [DONE]}: the end of the chunked body, from an endpoint that keeps its connection.
     * Past {@link #MOST_AFTER_DONE} characters, or on a failure, the connection is dropped instead (the
     * completion is whole either way).
     */
    private static void drain(BufferedReader rest) {
        char[] skipped = new char[512];
        try {
            int left = MOST_AFTER_DONE;
            for (int read = 0; left > 0 && read >= 0; left -= read) {
                read = rest.read(skipped);
            }
        } catch (IOException dropped) {
            // The completion was whole; this connection is not kept, which is all a failure here costs.
        }
    }

    /** The usage an answer reports, or {@code otherwise} where it reports none. */
    private static Usage usage(JsonNode used, Usage otherwise) {
        if (!used.isObject()) {
            return otherwise;
        }
        long prompt = used.path("prompt_tokens").asLong();
        long completion = used.path("completion_tokens").asLong();
        return new Usage(prompt, completion, used.path("total_tokens").asLong(prompt + completion));
    }

    private static String error(ChatRequest request, int status, InputStream answer) throws IOException {
        String body;
        try (InputStream in = answer) {
            body = new String(in.readNBytes(64 * 1024), StandardCharsets.UTF_8);
        }
        String message = body;
        try {
            JsonNode json = JSON.readTree(body);
            if (json.path("error").isObject()) {
                message = json.path("error").path("message").asText(body);
            } else if (json.path("error").isTextual()) {
                message = json.path("error").asText();
            }
        } catch (IOException notJson) {
            // The endpoint answered text; show it as it is.
        }
        return prefix(request) + status + " " + message.strip();
    }

    private static Thread daemon(Runnable runnable, String name) {
        Thread thread = new Thread(runnable, name);
        thread.setDaemon(true);
        return thread;
    }
}
