package dev.hexaflow.adapters.nodes.tool;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.hexaflow.adapters.nodes.net.NetworkFailures;
import dev.hexaflow.adapters.nodes.net.OnFirstUseHttpClient;
import dev.hexaflow.adapters.nodes.net.OutboundExchange;
import dev.hexaflow.adapters.nodes.net.TraceHeaders;
import dev.hexaflow.domain.tool.ToolDescription;
import dev.hexaflow.domain.tool.ToolMessage;
import dev.hexaflow.domain.tool.ToolProviderType;
import dev.hexaflow.domain.tool.ToolRef;
import dev.hexaflow.workflow.engine.StopSignal;
import dev.hexaflow.workflow.port.out.ToolRunner;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * Dify's built-in {@code dalle} tools {@code dalle2} and {@code dalle3}: the prompt sent to the configured
 * OpenAI-compatible endpoint's {@code POST /images/generations} (the operator's own endpoint, as model nodes reach
 * it), asking for {@code b64_json} as Dify does; each image becomes a tool file, as Dify's blob messages do. An
 * endpoint that answers {@code url}s instead has each image fetched through the outbound policy, since that address
 * is the upstream's choice. The sizes are Dify's words ({@code square}, {@code vertical}, {@code horizontal} for
 * dalle3; {@code small}, {@code medium}, {@code large} for dalle2) or a size itself ({@code 1024x1024}).
 */
public final class OpenAiCompatibleImageToolRunner implements ToolRunner {

    static final String PROVIDER = "dalle";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Map<String, String> DALLE3_SIZES = Map.of("square", "1024x1024", "vertical", "1024x1792",
            "horizontal", "1792x1024");
    private static final Map<String, String> DALLE2_SIZES = Map.of("small", "256x256", "medium", "512x512",
            "large", "1024x1024");
    private static final int MAX_IMAGES = 10;

    /** The endpoint and what one call may take: {@code maxBytes} is for the answer and each fetched image. */
    public record Endpoint(URI baseUrl, String apiKey, Optional<String> model, Duration timeout, long maxBytes) {
    }

    private final Endpoint endpoint;
    private final OutboundExchange outbound;
    private final HttpClient client;

    public OpenAiCompatibleImageToolRunner(Endpoint endpoint, OutboundExchange outbound) {
        this.endpoint = endpoint;
        this.outbound = outbound;
        this.client = OnFirstUseHttpClient.of(HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER)
                .connectTimeout(Duration.ofSeconds(10)));
    }

    /** The tools it runs, as {@code provider/tool}. */
    public static List<String> labels() {
        return List.of(PROVIDER + "/dalle2", PROVIDER + "/dalle3");
    }

    @Override
    public Optional<ToolDescription> describe(ToolRef tool) {
        boolean ours = (tool.type() == ToolProviderType.BUILTIN || tool.type() == ToolProviderType.PLUGIN)
                && tool.provider().equals(PROVIDER) && (tool.tool().equals("dalle2") || tool.tool().equals("dalle3"));
        List<String> names = tool.tool().equals("dalle3") ? List.of("prompt", "size", "n", "quality", "style")
                : List.of("prompt", "size", "n");
        return ours ? Optional.of(new ToolDescription(tool, "Generate images from a prompt with "
                + tool.tool().toUpperCase(java.util.Locale.ROOT), BuiltinArguments.schema(names,
                        Map.of("n", "number"), List.of("prompt")))) : Optional.empty();
    }

    @Override
    public List<ToolMessage> run(ToolRef tool, Map<String, Object> arguments, StopSignal stop) {
        if (endpoint.baseUrl() == null) {
            throw new ToolException("No image endpoint is configured: set HEXAFLOW_LLM_BASE_URL (and"
                    + " HEXAFLOW_IMAGE_MODEL) for the dalle tools to draw");
        }
        BuiltinArguments args = new BuiltinArguments(arguments);
        String prompt = args.text("prompt", "");
        if (prompt.isBlank()) {
            return List.of(new ToolMessage.Text("Please input prompt"));
        }
        boolean three = tool.tool().equals("dalle3");
        Long n = args.wholeNumber("n");
        if (n != null && (n < 1 || n > MAX_IMAGES)) {
            throw new ToolException("n must be from 1 to " + MAX_IMAGES + ", was " + n);
        }
        String size = args.text("size", three ? "square" : "large");
        ObjectNode body = JSON.createObjectNode()
                .put("model", endpoint.model().orElse(three ? "dall-e-3" : "dall-e-2"))
                .put("prompt", prompt)
                .put("size", (three ? DALLE3_SIZES : DALLE2_SIZES).getOrDefault(size, size))
                .put("n", n == null ? 1 : n)
                .put("response_format", "b64_json");
        if (three) {
            String quality = args.text("quality", "standard");
            String style = args.text("style", "vivid");
            if (!quality.equals("standard") && !quality.equals("hd")) {
                return List.of(new ToolMessage.Text("Invalid quality"));
            }
            if (!style.equals("natural") && !style.equals("vivid")) {
                return List.of(new ToolMessage.Text("Invalid style"));
            }
            body.put("quality", quality).put("style", style);
        }
        return images(generate(body, stop), stop);
    }

    private JsonNode generate(ObjectNode body, StopSignal stop) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(endpoint.baseUrl().toString()
                .replaceAll("/+$", "") + "/images/generations")).timeout(endpoint.timeout())
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body.toString(), StandardCharsets.UTF_8));
        if (endpoint.apiKey() != null && !endpoint.apiKey().isBlank()) {
            request.header("Authorization", "Bearer " + endpoint.apiKey());
        }
        TraceHeaders.addTo(request);
        CompletableFuture<HttpResponse<InputStream>> exchange = client.sendAsync(request.build(),
                HttpResponse.BodyHandlers.ofInputStream());
        byte[] answer;
        int status;
        try (AutoCloseable cancel = stop.onStop(() -> exchange.cancel(true))) {
            HttpResponse<InputStream> response = exchange.get();
            status = response.statusCode();
            answer = bounded(response.body(), "The image endpoint's answer");
        } catch (ToolException e) {
            throw e;
        } catch (Exception e) {
            throw new ToolException("The image endpoint failed: " + NetworkFailures.reason(e), e);
        }
        String text = new String(answer, StandardCharsets.UTF_8);
        if (status >= 400) {
            throw new ToolException("The image endpoint answered " + status + ": " + text);
        }
        try {
            return JSON.readTree(text);
        } catch (IOException e) {
            throw new ToolException("The image endpoint answered something other than JSON");
        }
    }

    private List<ToolMessage> images(JsonNode answer, StopSignal stop) {
        List<ToolMessage> messages = new ArrayList<>();
        for (JsonNode image : answer.path("data")) {
            if (image.hasNonNull("b64_json")) {
                messages.add(decoded(image.get("b64_json").asText()));
            } else if (image.hasNonNull("url")) {
                byte[] bytes = fetch(image.get("url").asText(), stop);
                messages.add(new ToolMessage.Blob(bytes, mimeType(bytes), null));
            }
        }
        if (messages.isEmpty()) {
            throw new ToolException("The image endpoint answered no image");
        }
        return messages;
    }

    /** Plain base64, or a {@code data:image/…;base64,} URL whose type Dify takes as given. */
    private static ToolMessage.Blob decoded(String text) {
        try {
            if (text.startsWith("data:image") && text.contains(",")) {
                String type = text.substring("data:".length(), text.indexOf(';') > 0 ? text.indexOf(';')
                        : text.indexOf(','));
                return new ToolMessage.Blob(Base64.getMimeDecoder().decode(text.substring(text.indexOf(',') + 1)),
                        type, null);
            }
            byte[] bytes = Base64.getMimeDecoder().decode(text);
            return new ToolMessage.Blob(bytes, mimeType(bytes), null);
        } catch (IllegalArgumentException e) {
            throw new ToolException("The image endpoint answered an image that is not base64");
        }
    }

    private byte[] fetch(String url, StopSignal stop) {
        try {
            HttpResponse<InputStream> response = outbound.send(client, new OutboundExchange.Outgoing(URI.create(url),
                    "GET", List.of(), null), endpoint.timeout(), stop);
            if (response.statusCode() != 200) {
                response.body().close();
                throw new ToolException("The image at " + url + " answered status " + response.statusCode());
            }
            return bounded(response.body(), "The image at " + url);
        } catch (ToolException e) {
            throw e;
        } catch (OutboundExchange.RefusedException e) {
            throw new ToolException(e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ToolException("The run stopped while the image was fetched");
        } catch (Exception e) {
            throw new ToolException("The image at " + url + " could not be fetched: " + NetworkFailures.reason(e), e);
        }
    }

    private byte[] bounded(InputStream body, String what) throws IOException {
        try (body) {
            byte[] bytes = body.readNBytes((int) Math.min(Integer.MAX_VALUE - 8, endpoint.maxBytes() + 1));
            if (bytes.length > endpoint.maxBytes()) {
                throw new ToolException(what + " is larger than " + endpoint.maxBytes() + " bytes");
            }
            return bytes;
        }
    }

    /** The type the bytes say they are; an image nothing recognises is called PNG, as Dify calls it. */
    private static String mimeType(byte[] bytes) {
        if (bytes.length > 3 && (bytes[0] & 0xff) == 0xff && (bytes[1] & 0xff) == 0xd8) {
            return "image/jpeg";
        }
        if (bytes.length > 11 && bytes[0] == 'R' && bytes[1] == 'I' && bytes[8] == 'W' && bytes[9] == 'E') {
            return "image/webp";
        }
        if (bytes.length > 3 && bytes[0] == 'G' && bytes[1] == 'I' && bytes[2] == 'F') {
            return "image/gif";
        }
        return "image/png";
    }
}
