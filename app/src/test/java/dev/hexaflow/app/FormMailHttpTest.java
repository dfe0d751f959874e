package dev.hexaflow.app;

import static dev.hexaflow.app.api.ServiceApi.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hexaflow.adapters.clients.mail.SmtpSettings;
import dev.hexaflow.adapters.nodes.fakes.LoopbackSmtpServer;
import dev.hexaflow.adapters.nodes.fakes.LoopbackSmtpServer.Received;
import dev.hexaflow.app.api.ServiceApi;
import dev.hexaflow.app.config.LogSettings.LogFormat;
import dev.hexaflow.app.config.MailSettings;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A form delivered by e-mail, end to end: a run pauses at a node with an {@code email} delivery method, the server
 * hands the mail to a real SMTP server on loopback, and the link in it opens the form's page and its form; a mail
 * server that refuses the login leaves the pause kept and one warning line, with no password in it.
 */
class FormMailHttpTest {

    private static final Pattern LINK = Pattern.compile("(http://\\S+/form/(\\S+))");
    private static final Pattern ENCODED_WORD = Pattern.compile("=\\?UTF-8\\?B\\?([^?]*)\\?=");

    @TempDir
    Path dataDir;

    @Test
    void aPausedFormIsMailedWithALinkThatOpensItsPage() throws Exception {
        try (LoopbackSmtpServer smtp = LoopbackSmtpServer.start();
                TestServer server = TestServer.start(TestServer.config(dataDir).withMail(MailSettings.through(
                        new SmtpSettings("127.0.0.1", smtp.port(), "flows@example.org"))))) {
            ServiceApi api = server.api(server.importApp("review-by-mail.yml").get("api_key").asText());
            JsonNode paused = FormPageHttpTest.pause(api, "the plan");
            assertThat(paused.get("data").get("reasons").get(0).get("form_token").isNull())
                    .as("a form delivered by mail alone shows no token on the wire").isTrue();

            Received mail = await(() -> smtp.received().stream().findFirst());
            assertThat(mail.mailFrom()).isEqualTo("flows@example.org");
            assertThat(mail.rcptTo()).containsExactly("reviewer@example.org");
            assertThat(subject(mail.data())).isEqualTo("Approval needed");
            String body = body(mail.data());
            assertThat(body).startsWith("A draft waits for you: ");
            Matcher link = LINK.matcher(body);
            assertThat(link.find()).as(body).isTrue();
            assertThat(link.group(1)).startsWith(server.hexaflow.baseUrl() + "/form/");

            String path = link.group(1).substring(server.hexaflow.baseUrl().length());
            assertThat(server.get(path).statusCode()).isEqualTo(200);
            JsonNode form = json(server.get("/api/form/human_input/" + link.group(2)));
            assertThat(form.get("form_content").asText()).startsWith("Please review: the plan");
            assertThat(server.send("POST", "/api/form/human_input/" + link.group(2), "application/json",
                    ServiceApi.json(Map.of("action", "approve", "inputs", Map.of("feedback", "ok", "priority",
                            "low"))), null).statusCode()).isEqualTo(200);
            assertThat(FormPageHttpTest.waitForEnd(api, paused.get("workflow_run_id").asText()).get("status")
                    .asText()).isEqualTo("succeeded");
            assertThat(smtp.received()).as("one mail for one form").hasSize(1);
        }
    }

    @Test
    void aMailThatCannotBeSentLeavesThePauseAndOneWarningWithoutThePassword() throws Exception {
        try (LoopbackSmtpServer smtp = LoopbackSmtpServer.start().password("the right one");
                CapturedLogs logs = new CapturedLogs(LogFormat.TEXT);
                TestServer server = TestServer.start(TestServer.config(dataDir).withMail(new MailSettings(
                        Optional.of(new SmtpSettings("127.0.0.1", smtp.port(), "flows@example.org", "ada",
                                "wrong s3cret", Duration.ofSeconds(5))), Optional.of("https://flows.example.org/"))))) {
            ServiceApi api = server.api(server.importApp("review-by-mail.yml").get("api_key").asText());
            JsonNode paused = FormPageHttpTest.pause(api, "the plan");
            String runId = paused.get("workflow_run_id").asText();

            List<String> lines = await(() -> Optional.of(logs.mentioning(runId)).filter(found -> !found.isEmpty()));
            assertThat(lines).hasSize(1);
            assertThat(lines.get(0)).contains(" WARN ", "was not sent", runId,
                    paused.get("data").get("reasons").get(0).get("form_id").asText());
            assertThat(logs.lines()).noneMatch(line -> line.contains("wrong s3cret"));
            assertThat(smtp.received()).isEmpty();
            assertThat(json(api.get("/v1/workflows/run/" + runId)).get("status").asText()).isEqualTo("paused");
        }
    }

    /** The Subject header, its RFC 2047 encoded-words decoded (plain ASCII is sent as it is). */
    private static String subject(String data) {
        String headers = data.substring(0, data.indexOf("\r\n\r\n")).replace("\r\n ", " ");
        String value = headers.lines().filter(line -> line.startsWith("Subject: ")).findFirst().orElseThrow();
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        Matcher word = ENCODED_WORD.matcher(value);
        while (word.find()) {
            bytes.writeBytes(Base64.getDecoder().decode(word.group(1)));
        }
        return bytes.size() == 0 ? value.substring("Subject: ".length()) : bytes.toString(StandardCharsets.UTF_8);
    }

    /** The quoted-printable body, decoded: soft breaks dropped, each =XX its byte. */
    private static String body(String data) {
        String body = data.substring(data.indexOf("\r\n\r\n") + 4).replace("=\r\n", "");
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        for (int i = 0; i < body.length(); i++) {
            if (body.charAt(i) == '=') {
                bytes.write(Integer.parseInt(body.substring(i + 1, i + 3), 16));
                i += 2;
            } else {
                bytes.write(body.charAt(i));
            }
        }
        return bytes.toString(StandardCharsets.UTF_8);
    }

    private static <T> T await(Supplier<Optional<T>> probe) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (System.nanoTime() < deadline) {
            Optional<T> found = probe.get();
            if (found.isPresent()) {
                return found.get();
            }
            Thread.sleep(50);
        }
        throw new AssertionError("nothing came within 20 s");
    }
}
