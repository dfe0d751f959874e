package dev.hexaflow.app;

import static dev.hexaflow.app.api.ServiceApi.json;
import static dev.hexaflow.app.api.ServiceApi.run;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Year;
import java.time.ZoneOffset;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Apps with tool nodes on the real server: built-in tools run; a tool nothing runs imports with a warning. */
class ToolsHttpTest {

    @TempDir
    Path dataDir;
    TestServer server;

    @AfterEach
    void stop() {
        if (server != null) {
            server.close();
        }
    }

    private static String resource(String name) throws Exception {
        try (InputStream in = ToolsHttpTest.class.getResourceAsStream("/apps/" + name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    @Test
    void anAppWithAnUnboundToolImportsWithAWarningAndItsRunFailsThatNodeSayingHowToBindIt() throws Exception {
        server = TestServer.start(dataDir);

        JsonNode imported = server.importApp("unbound-tool.yml");
        JsonNode republished = json(server.admin("PUT", "/admin/apps/" + imported.get("app_id").asText(),
                "application/yaml", resource("unbound-tool.yml")));
        JsonNode ran = json(server.api(imported.get("api_key").asText()).postJson("/v1/workflows/run",
                run(Map.of(), "blocking", "ada")));

        assertThat(imported.get("warnings")).hasSize(1);
        assertThat(imported.get("warnings").get(0).asText()).contains("junjiem/db_query/db_query/db_query")
                .contains("hexaflow tools bind").contains("PUT /admin/tools/bindings");
        assertThat(republished.get("warnings")).isEqualTo(imported.get("warnings"));
        assertThat(ran.get("data").get("status").asText()).isEqualTo("failed");
        assertThat(ran.get("data").get("error").asText()).startsWith("Failed to get tool runtime: ")
                .contains("junjiem/db_query/db_query/db_query").contains("hexaflow tools bind");
    }

    @Test
    void anAppWithBuiltInTimeToolsImportsWithoutWarningsAndRunsThem() {
        server = TestServer.start(dataDir);

        JsonNode imported = server.importApp("time-tool.yml");
        JsonNode ran = json(server.api(imported.get("api_key").asText()).postJson("/v1/workflows/run",
                run(Map.of("day", 29), "blocking", "ada")));

        assertThat(imported.get("warnings")).isEmpty();
        assertThat(ran.get("data").get("status").asText()).as(ran.toString()).isEqualTo("succeeded");
        assertThat(ran.get("data").get("outputs").get("year").asText())
                .isEqualTo(String.valueOf(Year.now(ZoneOffset.UTC).getValue()));
        assertThat(ran.get("data").get("outputs").get("weekday").asText())
                .isEqualTo("February 29, 2024 is Thursday.");
    }
}
