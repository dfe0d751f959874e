package com.example;

import dev.hexaflow.workflow.engine.StopSignal;
import dev.hexaflow.workflow.port.out.ModelProvider;
import dev.hexaflow.domain.workflow.WorkflowRun;
import dev.hexaflow.engine.EngineConfiguration;
import dev.hexaflow.engine.HexaflowEngine;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * An outside project's own model client, plugged into the standard engine: it asks an OpenAI-compatible endpoint
 * (the first argument) with java.net.http and reads its stream with a regular expression, no library of its own.
 */
public class LoopbackModelProgram {

    static final String DSL = """
            app: {name: ask, mode: workflow}
            workflow:
              graph:
                nodes:
                  - {id: start, data: {type: start, title: Start, variables: [{variable: question, type: paragraph}]}}
                  - id: llm
                    data:
                      type: llm
                      title: LLM
                      model: {provider: openai, name: gpt-4o-mini, mode: chat, completion_params: {}}
                      context: {enabled: false}
                      prompt_template:
                        - {role: user, text: '{{#start.question#}}'}
                  - {id: end, data: {type: end, title: End, outputs: [{variable: answer, value_selector: [llm, text]}]}}
                edges:
                  - {source: start, target: llm}
                  - {source: llm, target: end}
            """;

    public static void main(String[] args) {
        ModelProvider mine = new LoopbackModel(URI.create(args[0]));
        try (HexaflowEngine engine = HexaflowEngine.standard(EngineConfiguration.fromEnvironment(Map.of()),
                services -> services.withModels(mine))) {
            WorkflowRun run = engine.run(engine.read(DSL.getBytes(StandardCharsets.UTF_8)),
                    Map.of("question", "What is six times seven?"));
            System.out.println(run.status().wireName() + " " + run.outputs());
        }
    }

    static final class LoopbackModel implements ModelProvider {

        private static final Pattern CONTENT = Pattern.compile("\"content\":\"((?:[^\"\\\\]|\\\\.)*)\"");
        private final HttpClient client = HttpClient.newHttpClient();
        private final URI baseUrl;

        LoopbackModel(URI baseUrl) {
            this.baseUrl = baseUrl;
        }

        @Override
        public boolean isConfigured() {
            return true;
        }

        @Override
        public ChatResult chat(ChatRequest request, Consumer<String> onText, StopSignal stop) {
            String question = request.messages().get(request.messages().size() - 1).text();
            String body = "{\"model\":\"" + request.model() + "\",\"stream\":true,\"messages\":[{\"role\":\"user\","
                    + "\"content\":\"" + question.replace("\\", "\\\\").replace("\"", "\\\"") + "\"}]}";
            HttpRequest post = HttpRequest.newBuilder(URI.create(baseUrl + "/chat/completions"))
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString(body)).build();
            StringBuilder text = new StringBuilder();
            try {
                HttpResponse<java.io.InputStream> response = client.send(post, HttpResponse.BodyHandlers.ofInputStream());
                try (BufferedReader lines = new BufferedReader(
                        new InputStreamReader(response.body(), StandardCharsets.UTF_8))) {
                    for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                        Matcher piece = CONTENT.matcher(line);
                        if (line.startsWith("data: ") && piece.find()) {
                            String part = piece.group(1).replace("\\\"", "\"").replace("\\\\", "\\");
                            text.append(part);
                            onText.accept(part);
                        }
                    }
                }
            } catch (IOException e) {
                throw new ModelException("the model did not answer: " + e.getMessage(), e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new ModelException("interrupted", e);
            }
            return new ChatResult(text.toString(), Usage.NONE, "stop", List.of());
        }
    }
}
