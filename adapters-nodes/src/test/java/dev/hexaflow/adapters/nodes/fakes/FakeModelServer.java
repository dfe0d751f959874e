package dev.hexaflow.adapters.nodes.fakes;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;

/**
 * A real OpenAI-compatible chat-completions server on loopback, for tests: it streams a scripted answer as
 * server-sent events, word by word, with a pause before each piece, or fails with a status and message; it
 * answers {@code /embeddings} with a deterministic vector per text ({@link #vector}: a hashed bag of its words), or
 * fails them while {@link #failEmbeddings} says so; it answers {@code /rerank} (Jina/Cohere style) with the
 * documents in reverse order, the last sent scoring 1; and it keeps every request it received.
 */
public final class FakeModelServer implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** What the next calls answer. */
    public record Script(List<String> pieces, long promptTokens, long completionTokens, long pauseMillis,
            int failStatus, String failMessage, String toolName, String toolArguments, List<String> reasoning) {

        public Script {
            reasoning = reasoning == null ? List.of() : List.copyOf(reasoning);
        }

        public Script(List<String> pieces, long promptTokens, long completionTokens, long pauseMillis,
                int failStatus, String failMessage, String toolName, String toolArguments) {
            this(pieces, promptTokens, completionTokens, pauseMillis, failStatus, failMessage, toolName,
                    toolArguments, List.of());
        }

        public static Script text(String text, long prompt, long completion) {
            return new Script(words(text), prompt, completion, 0, 0, null, null, null);
        }

        /**
         * Reasoning sent apart, word by word in the deltas' {@code reasoning_content} (as DeepSeek and Qwen servers
         * do), then the text in their {@code content}.
         */
        public static Script reasoning(String reasoning, String text) {
            return new Script(words(text), 7, 3, 0, 0, null, null, null, words(reasoning));
        }

        public static Script failure(int status, String message) {
            return new Script(List.of(), 0, 0, 0, status, message, null, null);
        }

        public static Script toolCall(String name, String arguments) {
            return new Script(List.of(), 10, 5, 0, 0, null, name, arguments);
        }

        public Script pausing(long millis) {
            return new Script(pieces, promptTokens, completionTokens, millis, failStatus, failMessage, toolName,
                    toolArguments, reasoning);
        }

        /** Splits as Dify's mock does: "This", " is", " a", ... */
        static List<String> words(String text) {
            String[] words = text.split(" ", -1);
            List<String> pieces = new java.util.ArrayList<>();
            for (int i = 0; i < words.length; i++) {
                pieces.add(i == 0 ? words[i] : " " + words[i]);
            }
            return pieces;
        }
    }

    private final HttpServer server;
    private volatile Script script = Script.text("ok", 1, 1);
    private final java.util.Deque<Script> turns = new java.util.concurrent.ConcurrentLinkedDeque<>();
    private final List<JsonNode> requests = new CopyOnWriteArrayList<>();
    private final List<JsonNode> embeddingRequests = new CopyOnWriteArrayList<>();
    private final List<JsonNode> rerankRequests = new CopyOnWriteArrayList<>();
    private volatile int rerankFailure;
    private volatile int embeddingFailure;

    /** The length of the fake embedding vectors. */
    public static final int DIMENSIONS = 64;

    public FakeModelServer() {
        try {
            server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        server.setExecutor(Executors.newCachedThreadPool());
        server.createContext("/v1/chat/completions", this::complete);
        server.createContext("/v1/audio/speech", this::speak);
        server.createContext("/v1/embeddings", this::embed);
        server.createContext("/v1/audio/transcriptions", this::transcribe);
        server.createContext("/v1/rerank", this::rerank);
        server.start();
    }

    public URI baseUrl() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/v1");
    }

    public void answer(Script next) {
        turns.clear();
        this.script = next;
    }

    /**
     * Answers the next calls with these scripts in turn, one each (an agent's rounds: tool calls, then the answer),
     * and every call after them with the last.
     */
    public void answerInTurn(Script... scripts) {
        turns.clear();
        turns.addAll(List.of(scripts));
        this.script = scripts[scripts.length - 1];
    }

    public List<JsonNode> requests() {
        return requests;
    }

    private void complete(HttpExchange exchange) throws IOException {
        try (exchange) {
            requests.add(JSON.readTree(exchange.getRequestBody()));
            Script turn = turns.poll();
            Script now = turn != null ? turn : script;
            if (now.failStatus() > 0) {
                byte[] body = JSON.createObjectNode().set("error", JSON.createObjectNode()
                        .put("message", now.failMessage()).put("type", "server_error")).toString()
                        .getBytes(StandardCharsets.UTF_8);
                exchange.getResponseHeaders().set("Content-Type", "application/json");
                exchange.sendResponseHeaders(now.failStatus(), body.length);
                exchange.getResponseBody().write(body);
                return;
            }
            exchange.getResponseHeaders().set("Content-Type", "text/event-stream");
            exchange.sendResponseHeaders(200, 0);
            OutputStream out = exchange.getResponseBody();
            for (String piece : now.reasoning()) {
                pause(now.pauseMillis());
                send(out, "{\"choices\":[{\"index\":0,\"delta\":{\"content\":null,\"reasoning_content\":"
                        + JSON.writeValueAsString(piece) + "},\"finish_reason\":null}]}");
            }
            for (String piece : now.pieces()) {
                pause(now.pauseMillis());
                send(out, "{\"choices\":[{\"index\":0,\"delta\":{\"content\":" + JSON.writeValueAsString(piece)
                        + "},\"finish_reason\":null}]}");
            }
            if (now.toolName() != null) {
                pause(now.pauseMillis());
                send(out, "{\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"id\":\"call_"
                        + requests.size() + "\",\"type\":\"function\",\"function\":{\"name\":"
                        + JSON.writeValueAsString(now.toolName()) + ",\"arguments\":"
                        + JSON.writeValueAsString(now.toolArguments()) + "}}]},\"finish_reason\":null}]}");
            }
            send(out, "{\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\""
                    + (now.toolName() != null ? "tool_calls" : "stop") + "\"}]}");
            send(out, "{\"choices\":[],\"usage\":{\"prompt_tokens\":" + now.promptTokens()
                    + ",\"completion_tokens\":" + now.completionTokens() + ",\"total_tokens\":"
                    + (now.promptTokens() + now.completionTokens()) + "}}");
            out.write("data: [DONE]\n\n".getBytes(StandardCharsets.UTF_8));
            out.flush();
        } catch (IOException e) {
            // The client went away (a stopped run); nothing more to send.
        }
    }

    /** From now on the embeddings endpoint answers this status (0: answers vectors again). */
    public void failEmbeddings(int status) {
        this.embeddingFailure = status;
    }

    /** The embeddings requests received, each with its {@code input}. */
    public List<JsonNode> embeddingRequests() {
        return embeddingRequests;
    }

    /**
     * A text's fake embedding: each lower-cased word (and each han or kana character) adds 1 to the dimension its
     * hash picks, so texts that share words have near vectors, and the same text always has the same vector.
     */
    public static float[] vector(String text) {
        float[] vector = new float[DIMENSIONS];
        for (String word : text.toLowerCase(java.util.Locale.ROOT).split("[^\\p{L}\\p{N}]+|(?<=\\p{IsHan})|(?=\\p{IsHan})")) {
            if (!word.isBlank()) {
                vector[Math.floorMod(word.hashCode(), DIMENSIONS)] += 1;
            }
        }
        return vector;
    }

    private void embed(HttpExchange exchange) throws IOException {
        try (exchange) {
            JsonNode request = JSON.readTree(exchange.getRequestBody());
            embeddingRequests.add(request);
            byte[] body;
            int status = embeddingFailure;
            if (status > 0) {
                body = JSON.createObjectNode().set("error", JSON.createObjectNode()
                        .put("message", "embeddings are down").put("type", "server_error")).toString()
                        .getBytes(StandardCharsets.UTF_8);
            } else {
                status = 200;
                com.fasterxml.jackson.databind.node.ObjectNode answer = JSON.createObjectNode().put("object", "list");
                com.fasterxml.jackson.databind.node.ArrayNode data = answer.putArray("data");
                JsonNode input = request.path("input");
                List<String> texts = new java.util.ArrayList<>();
                if (input.isArray()) {
                    input.forEach(t -> texts.add(t.asText()));
                } else {
                    texts.add(input.asText());
                }
                for (int i = 0; i < texts.size(); i++) {
                    com.fasterxml.jackson.databind.node.ArrayNode numbers = data.addObject().put("object", "embedding")
                            .put("index", i).putArray("embedding");
                    for (float x : vector(texts.get(i))) {
                        numbers.add(x);
                    }
                }
                answer.put("model", request.path("model").asText());
                body = answer.toString().getBytes(StandardCharsets.UTF_8);
            }
            exchange.getResponseHeaders().set("Content-Type", "application/json");
            exchange.sendResponseHeaders(status, body.length);
            exchange.getResponseBody().write(body);
        }
    }

    /** The rerank requests received, each with its {@code model}, {@code query}, {@code documents}, {@code top_n}. */
    public List<JsonNode> rerankRequests() {
        return rerankRequests;
    }

    /** From now on the rerank endpoint answers this status (0: answers scores again). */
    public void failRerank(int status) {
        this.rerankFailure = status;
    }

    /** Scores document i of n as (i + 1) / n: the reverse of the order sent, so a test sees the rerank's effect. */
    private void rerank(HttpExchange exchange) throws IOException {
        try (exchange) {
            JsonNode request = JSON.readTree(exchange.getRequestBody());
            rerankRequests.add(request);
            if (rerankFailure > 0) {
                byte[] body = "{\"detail\":\"rerank is down\"}".getBytes(StandardCharsets.UTF_8);
                exchange.getResponseHeaders().set("Content-Type", "application/json");
                exchange.sendResponseHeaders(rerankFailure, body.length);
                exchange.getResponseBody().write(body);
                return;
            }
            int n = request.path("documents").size();
            int topN = request.path("top_n").asInt(n);
            com.fasterxml.jackson.databind.node.ObjectNode answer = JSON.createObjectNode();
            com.fasterxml.jackson.databind.node.ArrayNode results = answer.putArray("results");
            for (int i = n - 1; i >= 0 && results.size() < topN; i--) {
                results.addObject().put("index", i).put("relevance_score", (i + 1) / (double) n);
            }
            byte[] body = answer.toString().getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
        }
    }

    /** Answers "audio" that is the text it was given, so a test can read what was spoken. */
    private void speak(HttpExchange exchange) throws IOException {
        try (exchange) {
            JsonNode request = JSON.readTree(exchange.getRequestBody());
            requests.add(request);
            byte[] audio = ("MP3:" + request.path("voice").asText() + ":" + request.path("input").asText())
                    .getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", "audio/mpeg");
            exchange.sendResponseHeaders(200, audio.length);
            exchange.getResponseBody().write(audio);
        }
    }

    /**
     * Answers a transcription that is the multipart request's model, file name and audio bytes as text
     * ({@code model|filename|audio}), so a test can read what was sent.
     */
    private void transcribe(HttpExchange exchange) throws IOException {
        try (exchange) {
            String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.ISO_8859_1);
            String boundary = exchange.getRequestHeaders().getFirst("Content-Type").replaceAll(".*boundary=", "");
            String model = "";
            String filename = "";
            String audio = "";
            for (String part : body.split("--" + java.util.regex.Pattern.quote(boundary))) {
                int blank = part.indexOf("\r\n\r\n");
                if (blank < 0) {
                    continue;
                }
                String head = part.substring(0, blank);
                String content = part.substring(blank + 4, part.length() - 2);
                if (head.contains("name=\"model\"")) {
                    model = content;
                } else if (head.contains("name=\"file\"")) {
                    filename = head.replaceAll("(?s).*filename=\"([^\"]*)\".*", "$1");
                    audio = content;
                }
            }
            byte[] answer = JSON.createObjectNode().put("text", model + "|" + filename + "|" + audio).toString()
                    .getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, answer.length);
            exchange.getResponseBody().write(answer);
        }
    }

    private static void send(OutputStream out, String json) throws IOException {
        out.write(("data: " + json + "\n\n").getBytes(StandardCharsets.UTF_8));
        out.flush();
    }

    private static void pause(long millis) {
        if (millis > 0) {
            try {
                Thread.sleep(millis);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
