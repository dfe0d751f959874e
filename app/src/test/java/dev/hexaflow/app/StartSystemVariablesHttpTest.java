package dev.hexaflow.app;

import static dev.hexaflow.app.api.ServiceApi.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hexaflow.app.api.ServiceApi;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An older chatflow that reads {@code sys.*} under its start node's id ({@code [start_id, "sys.query"]} and
 * {@code {{#start_id.sys.query#}}}) imports and answers on the real server; a name that is no system variable is
 * refused at import, naming it.
 */
class StartSystemVariablesHttpTest {

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

    @Test
    void aChatTurnAnswersWithTheQueryReadThroughTheStartNodesId() {
        JsonNode imported = server.importApp("start-sys-chat.yml");
        ServiceApi chat = server.api(imported.get("api_key").asText());

        HttpResponse<String> answer = chat.postJson("/v1/chat-messages", Map.of("inputs", Map.of(),
                "query", "where is lunch?", "response_mode", "blocking", "user", "ada"));

        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
        JsonNode body = json(answer);
        String conversation = body.get("conversation_id").asText();
        assertThat(body.get("answer").asText()).startsWith("where is lunch? / where is lunch? from ")
                .endsWith(" in " + conversation);
        assertThat(body.get("answer").asText()).doesNotContain("{{#").doesNotContain("sys.");
    }

    @Test
    void aNameThatIsNoSystemVariableIsRefusedAtImport() {
        HttpResponse<String> response = server.admin("POST", "/admin/apps", "application/yaml", """
                app: {name: typo, mode: advanced-chat}
                workflow:
                  graph:
                    nodes:
                      - {id: s, data: {type: start, title: S, variables: []}}
                      - {id: a, data: {type: answer, title: A, answer: "{{#s.sys.querry#}}"}}
                    edges:
                      - {source: s, target: a}
                """);

        assertThat(response.statusCode()).as(response.body()).isEqualTo(400);
        JsonNode body = json(response);
        assertThat(body.get("code").asText()).isEqualTo("invalid_dsl");
        assertThat(body.get("problems")).extracting(p -> p.get("node_id").asText() + ": " + p.get("message").asText())
                .containsExactly("a: refers to [s, sys.querry], but S (s) has no system variable sys.querry (there "
                        + "are sys.app_id, sys.conversation_id, sys.dialogue_count, sys.files, sys.invoke_from, "
                        + "sys.query, sys.timestamp, sys.user_id, sys.workflow_id, sys.workflow_run_id)");
    }
}
