package dev.hexaflow.app;

import dev.hexaflow.app.config.DataDirectory;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Optional;

/**
 * What the operator needs to know once the server answers: where (and on which PostgreSQL database, when not on
 * H2 in the data dir), and the secrets made by this start, with the
 * demo apps a first start imports (a workflow and a chatflow, neither needing a model).
 */
public record StartReport(String baseUrl, Path dataDir, Optional<String> newAdminToken, Optional<String> newCampusKey,
        Optional<Demo> demo, Optional<Demo> chatDemo, Optional<String> databaseUrl) {

    /** A demo app: its key (shown once) and its page. */
    record Demo(String apiKey, String page) {
    }

    Optional<String> demoAppKey() {
        return demo.map(Demo::apiKey);
    }

    Optional<String> chatDemoKey() {
        return chatDemo.map(Demo::apiKey);
    }

    String tryCommand() {
        String query = newCampusKey.map(key -> "?key=" + key).orElse("");
        return "curl '" + baseUrl + "/v2/events/holidays.json" + query + "'";
    }

    /** A curl line that runs the demo app, when it was imported by this start. */
    Optional<String> demoCommand() {
        return demoAppKey().map(key -> "curl -X POST '" + baseUrl + "/v1/workflows/run' -H 'Authorization: Bearer "
                + key + "' -H 'Content-Type: application/json' -d '{\"inputs\": {\"year\": \"2026\"}, "
                + "\"response_mode\": \"blocking\", \"user\": \"demo\"}'");
    }

    /** A curl line that asks the demo chatflow a question, when it was imported by this start. */
    Optional<String> chatCommand() {
        return chatDemoKey().map(key -> "curl -X POST '" + baseUrl + "/v1/chat-messages' -H 'Authorization: Bearer "
                + key + "' -H 'Content-Type: application/json' -d '{\"query\": \"Which holidays are in 2026?\", "
                + "\"inputs\": {}, \"response_mode\": \"blocking\", \"user\": \"demo\"}'");
    }

    void print(PrintStream out) {
        StringBuilder block = new StringBuilder();
        block.append("Hexaflow is ready on ").append(baseUrl).append('\n');
        block.append("  data dir     ").append(dataDir.toAbsolutePath().normalize()).append('\n');
        databaseUrl.ifPresent(url -> block.append("  database     ").append(url).append('\n'));
        newAdminToken.ifPresent(token -> block.append("  admin token  ").append(token)
                .append("  (new; kept in ").append(dataDir.resolve(DataDirectory.ADMIN_TOKEN_FILE))
                .append(", not shown again)\n"));
        newCampusKey.ifPresent(key -> block.append("  campus key   ").append(key)
                .append("  (new; not shown again)\n"));
        demo.ifPresent(app -> block.append("  demo app key ").append(app.apiKey())
                .append("  (the Holiday counter workflow; new, not shown again)\n")
                .append("  demo page    ").append(app.page()).append("  (open it in a browser)\n"));
        chatDemo.ifPresent(app -> block.append("  chat app key ").append(app.apiKey())
                .append("  (the Holiday chat chatflow; new, not shown again)\n")
                .append("  chat page    ").append(app.page()).append("  (a chat in the browser)\n"));
        block.append("  try          ").append(tryCommand()).append('\n');
        demoCommand().ifPresent(command -> block.append("  run the demo ").append(command).append('\n'));
        chatCommand().ifPresent(command -> block.append("  chat         ").append(command).append('\n'));
        out.print(block);
        out.flush();
    }
}
