package dev.hexaflow.app;

import static dev.hexaflow.app.TestServer.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hexaflow.app.api.ServiceApi;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Files of the older DSL shapes (the engine module's {@code olddsl} resources, each tested there) imported through
 * the admin API and run on /v1 as Dify runs them.
 */
class OlderDslHttpTest {

    /** The engine module's files of older shapes; a module's tests run in its own folder. */
    private static final Path OLD_FILES = Path.of("..", "engine", "src", "test", "resources", "olddsl");

    @TempDir
    static Path dataDir;
    static TestServer server;

    @BeforeAll
    static void start() {
        server = TestServer.start(dataDir);
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static ServiceApi imported(String file) throws IOException {
        HttpResponse<String> answer = server.admin("POST", "/admin/apps", "application/yaml",
            Files.readString(OLD_FILES.resolve(file)));
        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(201);
        return server.api(json(answer).get("api_key").asText());
    }

    @Test
    void aVersionZeroOneFileWithoutKindAndAnIterationWithoutAStartNodeImportAndRun() throws IOException {
        ServiceApi legacy = imported("legacy-if-else-v0.1.0.yml");
        JsonNode big = json(legacy.postJson("/v1/workflows/run", ServiceApi.run(Map.of("n", 7), "blocking",
                "u")));
        assertThat(big.get("data").get("outputs").get("size").asBoolean()).as(big.toString()).isTrue();

        ServiceApi iteration = imported("iteration-without-start-node.yml");
        JsonNode all = json(iteration.postJson("/v1/workflows/run", ServiceApi.run(Map.of(), "blocking", "u")));
        assertThat(all.get("data").get("outputs").get("all").toString()).as(all.toString())
                .isEqualTo("[\"a!\",\"b!\"]");
    }

    @Test
    void theFirstAssignerKeepsConversationVariablesAcrossTurns() throws IOException {
        ServiceApi chat = imported("assigner-v1.yml");

        JsonNode first = json(chat.postJson("/v1/chat-messages",
                ChatApiHttpTest.message("first", null, "bea", "blocking")));
        JsonNode second = json(chat.postJson("/v1/chat-messages", ChatApiHttpTest.message("second",
                first.get("conversation_id").asText(), "bea", "blocking")));

        assertThat(first.get("answer").asText()).as(first.toString()).startsWith("kept first, seen");
        assertThat(second.get("answer").asText()).as(second.toString()).startsWith("kept second, seen")
                .contains("first", "second");
    }
}
