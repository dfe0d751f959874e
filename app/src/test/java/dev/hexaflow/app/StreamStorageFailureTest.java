package dev.hexaflow.app;

import dev.hexaflow.engine.EngineConfiguration;
import static org.assertj.core.api.Assertions.assertThat;

import dev.hexaflow.adapters.nodes.fakes.FakeModelServer.Script;
import dev.hexaflow.adapters.nodes.fakes.FakeModelServer;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A streamed run whose writes start failing mid-run (H2 closes a database whose write failed, as on a full disk;
 * here it is closed the same way, by SHUTDOWN IMMEDIATELY) is not told as finished: the stream ends with Dify's
 * error event naming the store, and no workflow_finished.
 */
class StreamStorageFailureTest {

    @TempDir
    Path dataDir;

    @Test
    void aStreamWhoseRunCannotBeKeptEndsWithAnErrorEventNotAsFinished() throws Exception {
        try (FakeModelServer model = new FakeModelServer();
                TestServer server = TestServer.start(TestServer.config(dataDir).withEngine(
                        EngineConfiguration.fromEnvironment(Map.of()).withLlm(model.baseUrl(), "sk-test")))) {
            model.answer(Script.text("one two three four", 3, 4).pausing(400));
            String key = TestServer.json(server.admin("POST", "/admin/apps", "application/yaml",
                    GracefulShutdownIT.CHAT)).get("api_key").asText();
            URI base = URI.create(server.hexaflow.baseUrl());
            byte[] body = "{\"inputs\":{\"q\":\"hi\"},\"response_mode\":\"streaming\",\"user\":\"u\"}"
                    .getBytes(StandardCharsets.UTF_8);
            try (Socket socket = new Socket(base.getHost(), base.getPort())) {
                socket.setSoTimeout(20_000);
                socket.getOutputStream().write(("POST /v1/workflows/run HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer "
                        + key + "\r\nContent-Type: application/json\r\nContent-Length: " + body.length
                        + "\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
                socket.getOutputStream().write(body);
                InputStream in = socket.getInputStream();
                ByteArrayOutputStream received = new ByteArrayOutputStream();
                byte[] buffer = new byte[4096];
                boolean closed = false;
                int n;
                while ((n = in.read(buffer)) > 0) {
                    received.write(buffer, 0, n);
                    if (!closed && received.toString(StandardCharsets.UTF_8).contains("\"event\":\"text_chunk\"")) {
                        // The model is answering: the database goes away before the node's end is written.
                        try (Connection db = DriverManager.getConnection("jdbc:h2:async:"
                                + dataDir.toAbsolutePath().resolve("hexaflow"), "sa", "")) {
                            db.createStatement().execute("SHUTDOWN IMMEDIATELY");
                        } catch (java.sql.SQLException goneAlready) {
                            // SHUTDOWN closes the connection it came through as well.
                        }
                        closed = true;
                    }
                }
                String stream = received.toString(StandardCharsets.UTF_8);
                assertThat(closed).as("the model streamed before the run ended").isTrue();
                assertThat(stream).doesNotContain("\"event\":\"workflow_finished\"");
                assertThat(stream).contains("\"event\":\"error\"").contains("\"code\":\"insufficient_storage\"")
                        .contains("\"status\":507");
            }
        }
    }
}
