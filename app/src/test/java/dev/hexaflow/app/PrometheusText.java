package dev.hexaflow.app;

import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/**
 * Prometheus' text format read by Prometheus' own parser: the Python client's
 * ({@code prometheus_client.parser.text_string_to_metric_families}, Debian's {@code python3-prometheus-client}),
 * since no maintained Java parser of the text format exists. Where it is absent, a test that needs it is skipped;
 * on CI ({@code CI=true}) it fails instead, for .ci/run installs it.
 */
final class PrometheusText {

    /** One sample: a metric family's line, with its name as written ({@code _total}, {@code _bucket}...). */
    record Sample(String family, String type, String name, Map<String, String> labels, double value) {
    }

    /** Python's json writes NaN and Infinity bare, as a gauge with no value may be. */
    private static final ObjectMapper JSON = JsonMapper.builder()
            .enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS).build();
    /** Debian's Python first: the package installs into it, not into another Python on the path. */
    private static final List<String> PYTHONS = List.of("/usr/bin/python3", "python3");
    private static final String PARSE = String.join("\n",
            "import json, sys",
            "from prometheus_client.parser import text_string_to_metric_families",
            "out = []",
            "for family in text_string_to_metric_families(sys.stdin.read()):",
            "    for s in family.samples:",
            "        out.append({'family': family.name, 'type': family.type, 'name': s.name,",
            "                    'labels': s.labels, 'value': s.value})",
            "print(json.dumps(out))");

    private PrometheusText() {
    }

    /** The Python that has the parser; skips the test where none has it, fails it on CI. */
    static String requireParser() {
        Optional<String> python = PYTHONS.stream().filter(PrometheusText::hasParser).findFirst();
        if (python.isEmpty() && "true".equals(System.getenv("CI"))) {
            throw new AssertionError("python3-prometheus-client is not installed; .ci/run installs it");
        }
        Assumptions.assumeTrue(python.isPresent(), "python3-prometheus-client is not installed");
        return python.get();
    }

    /** Every sample of {@code text}; the parser refuses text that is not the format. */
    static List<Sample> parse(String python, String text) {
        try {
            Process process = new ProcessBuilder(python, "-c", PARSE).redirectErrorStream(false).start();
            try (OutputStream in = process.getOutputStream()) {
                in.write(text.getBytes(StandardCharsets.UTF_8));
            }
            byte[] out = process.getInputStream().readAllBytes();
            String errors = new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!process.waitFor(30, TimeUnit.SECONDS) || process.exitValue() != 0) {
                throw new AssertionError("the Prometheus parser refused the text: " + errors);
            }
            List<Sample> samples = new ArrayList<>();
            for (JsonNode sample : JSON.readTree(out)) {
                Map<String, String> labels = new LinkedHashMap<>();
                sample.get("labels").fields().forEachRemaining(label -> labels.put(label.getKey(),
                        label.getValue().asText()));
                samples.add(new Sample(sample.get("family").asText(), sample.get("type").asText(),
                        sample.get("name").asText(), labels, sample.get("value").asDouble()));
            }
            return samples;
        } catch (IOException e) {
            throw new AssertionError("could not run the Prometheus parser", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    private static boolean hasParser(String python) {
        try {
            Process process = new ProcessBuilder(python, "-c", "import prometheus_client.parser")
                    .redirectErrorStream(true).start();
            process.getInputStream().readAllBytes();
            return process.waitFor(30, TimeUnit.SECONDS) && process.exitValue() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
