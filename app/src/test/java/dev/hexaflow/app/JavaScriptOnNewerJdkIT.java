package dev.hexaflow.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hexaflow.adapters.nodes.code.NewerJava;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The packaged jar on JDK 22 or later, where GraalJS 23.1 fails: a workflow's JavaScript node runs, on GraalJS 25
 * copied out of the jar itself, and the copy is gone once the server has stopped.
 */
class JavaScriptOnNewerJdkIT {

    private static final String ADMIN = "newer-jdk-admin-token-0123456789";

    @TempDir
    Path work;

    @Test
    void aJavaScriptNodeRunsOnTheJarOnJdk22OrLaterAndItsCopyIsRemovedAtTheStop() throws Exception {
        Optional<NewerJava> newer = NewerJava.find();
        Assumptions.assumeTrue(newer.isPresent(), NewerJava.NONE);
        JarServer server = JarServer.start(newer.get().java(), work.resolve("data"), work.resolve("server.log"),
                Map.of("HEXAFLOW_ADMIN_TOKEN", ADMIN));
        long pid = server.process().pid();
        try {
            String key = server.importApp(ADMIN, "/apps/javascript-node.yml");
            for (String name : List.of("ada", "grace")) {
                HttpResponse<String> run = TestServer.exchange(HttpRequest.newBuilder(
                        URI.create(server.baseUrl() + "/v1/workflows/run")).header("Authorization", "Bearer " + key)
                        .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(
                                "{\"inputs\": {\"name\": \"" + name + "\"}, \"response_mode\": \"blocking\", "
                                        + "\"user\": \"u\"}")), HttpResponse.BodyHandlers.ofString());

                assertThat(run.statusCode()).as(run.body()).isEqualTo(200);
                JsonNode data = TestServer.json(run).get("data");
                assertThat(data.get("status").asText()).as(run.body()).isEqualTo("succeeded");
                assertThat(data.get("outputs").get("shout").asText()).isEqualTo(name.toUpperCase() + "!");
                assertThat(data.get("outputs").get("letters").asInt()).isEqualTo(name.length());
            }
            assertThat(copiesOf(pid)).as("the jar's GraalJS 25, copied for the workers").hasSize(1);
        } finally {
            server.stop();
        }
        assertThat(copiesOf(pid)).as("removed as the server stopped").isEmpty();
    }

    private static List<Path> copiesOf(long pid) throws IOException {
        try (Stream<Path> all = Files.list(Path.of(System.getProperty("java.io.tmpdir")))) {
            return all.filter(path -> path.getFileName().toString().startsWith("hexaflow-graaljs-" + pid + "-"))
                    .toList();
        }
    }
}
