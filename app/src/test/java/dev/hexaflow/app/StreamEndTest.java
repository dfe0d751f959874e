package dev.hexaflow.app;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hexaflow.engine.Dsl;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A streamed run's response ends right after its last event, every time: thousands of streams of a five-node
 * workflow, one after another and eight at a time, each read to its end over a raw socket. Once
 * {@code workflow_finished} has arrived, the response must end within a second (the ping interval is ten); a
 * response still open then fails the test at once rather than waiting for the ping.
 */
class StreamEndTest {

    private static final int ONE_AFTER_ANOTHER = 1_000;
    private static final int CLIENTS = 8;
    private static final int EACH_CONCURRENT = 150;
    private static final int AFTER_LAST_EVENT_MILLIS = 1_000;

    @TempDir
    Path dataDir;

    @Test
    void everyStreamEndsWithItsLastEventOneAfterAnotherAndConcurrently() throws Exception {
        try (TestServer server = TestServer.start(dataDir)) {
            String key = TestServer.json(server.admin("POST", "/admin/apps", "application/yaml", fiveNodes()))
                    .get("api_key").asText();
            URI base = URI.create(server.hexaflow.baseUrl());
            for (int i = 0; i < ONE_AFTER_ANOTHER; i++) {
                streamToItsEnd(base, key, "seq-" + i);
            }
            ExecutorService clients = Executors.newFixedThreadPool(CLIENTS);
            try {
                List<Future<?>> done = new ArrayList<>();
                for (int c = 0; c < CLIENTS; c++) {
                    int client = c;
                    done.add(clients.submit(() -> {
                        for (int i = 0; i < EACH_CONCURRENT; i++) {
                            streamToItsEnd(base, key, "c" + client + "-" + i);
                        }
                        return null;
                    }));
                }
                for (Future<?> each : done) {
                    each.get();
                }
            } finally {
                clients.shutdownNow();
            }
        }
    }

    /** Streams one run and fails when the response is still open a second after workflow_finished. */
    private static void streamToItsEnd(URI base, String key, String user) throws IOException {
        String body = "{\"inputs\":{\"name\":\"" + user + "\"},\"response_mode\":\"streaming\",\"user\":\"" + user
                + "\"}";
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        try (Socket socket = new Socket(base.getHost(), base.getPort())) {
            socket.setSoTimeout(10_000);
            socket.getOutputStream().write(("POST /v1/workflows/run HTTP/1.1\r\nHost: " + base.getHost() + "\r\n"
                    + "Authorization: Bearer " + key + "\r\nContent-Type: application/json\r\n"
                    + "Content-Length: " + bytes.length + "\r\nConnection: close\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            socket.getOutputStream().write(bytes);
            socket.getOutputStream().flush();
            InputStream in = socket.getInputStream();
            ByteArrayOutputStream received = new ByteArrayOutputStream();
            byte[] buffer = new byte[8192];
            boolean finished = false;
            while (true) {
                int n;
                try {
                    n = in.read(buffer);
                } catch (SocketTimeoutException e) {
                    throw new AssertionError("the stream of " + user + " was still open "
                            + socket.getSoTimeout() + " ms after " + (finished ? "workflow_finished" : "its start")
                            + "; received:\n" + received.toString(StandardCharsets.UTF_8));
                }
                if (n < 0) {
                    break;
                }
                received.write(buffer, 0, n);
                if (!finished && received.toString(StandardCharsets.UTF_8).contains("\"event\":\"workflow_finished\"")) {
                    finished = true;
                    socket.setSoTimeout(AFTER_LAST_EVENT_MILLIS);
                }
            }
            String text = received.toString(StandardCharsets.UTF_8);
            assertThat(text).startsWith("HTTP/1.1 200");
            assertThat(finished).as("workflow_finished in the stream of " + user).isTrue();
            assertThat(text).contains("\"outputs\":{\"greeting\":\"Hello " + user + "! (3)\"}");
            assertThat(text.indexOf("workflow_finished")).as("nothing after workflow_finished but the end")
                    .isGreaterThan(text.lastIndexOf("\"event\":\"node_finished\""));
        }
    }

    /** start, three template transforms in a row, end: five nodes. */
    private static String fiveNodes() {
        return Dsl.text("""
                - {id: start, data: {type: start, title: Start, variables: [{variable: name, label: name, type: text-input, required: true}]}}
                - {id: t1, data: {type: template-transform, title: T1, template: 'Hello {{ name }}!', variables: [{variable: name, value_selector: [start, name]}]}}
                - {id: t2, data: {type: template-transform, title: T2, template: '{{ x }} (', variables: [{variable: x, value_selector: [t1, output]}]}}
                - {id: t3, data: {type: template-transform, title: T3, template: '{{ x }}3)', variables: [{variable: x, value_selector: [t2, output]}]}}
                - {id: end, data: {type: end, title: End, outputs: [{variable: greeting, value_selector: [t3, output]}]}}
                """, """
                - {source: start, target: t1}
                - {source: t1, target: t2}
                - {source: t2, target: t3}
                - {source: t3, target: end}
                """);
    }
}
