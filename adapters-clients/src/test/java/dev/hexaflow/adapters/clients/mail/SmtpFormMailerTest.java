package dev.hexaflow.adapters.clients.mail;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hexaflow.adapters.nodes.fakes.LoopbackSmtpServer;
import dev.hexaflow.application.runs.port.out.FormMailer.FormMail;
import dev.hexaflow.application.runs.port.out.FormMailer.FormMailException;
import java.io.ByteArrayOutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The mailer against a real SMTP server on loopback: what arrives, what is refused, what never answers. */
class SmtpFormMailerTest {

    private static final String LINK = "https://flow.example/form/" + "t".repeat(90) + "?lang=de";
    private static final Pattern ENCODED_WORD = Pattern.compile("=\\?UTF-8\\?B\\?([^?]*)\\?=");

    private final LoopbackSmtpServer server = LoopbackSmtpServer.start();

    @AfterEach
    void close() throws Exception {
        server.close();
    }

    private SmtpFormMailer mailer(String user, String password, Duration timeout, int port) {
        return new SmtpFormMailer(new SmtpSettings("127.0.0.1", port, "flows@example.org", user, password,
                timeout));
    }

    private SmtpFormMailer mailer() {
        return mailer(null, null, Duration.ofSeconds(5), server.port());
    }

    @Test
    void aMailArrivesWholeWithItsRecipientsItsSubjectDecodedAndItsDottedLineIntact() {
        String subject = "Bitte prüfen: die Rückerstattung für Åsa Öberg wartet auf Ihre Freigabe – danke ✓";
        String body = "Hallo,\n.this line starts with a dot\nÖffnen Sie: " + LINK + "\nGrüße\n";

        mailer().send(new FormMail(List.of("ada@example.org", "bob@example.org"), subject, body));

        assertThat(server.received()).singleElement().satisfies(mail -> {
            assertThat(mail.mailFrom()).isEqualTo("flows@example.org");
            assertThat(mail.rcptTo()).containsExactly("ada@example.org", "bob@example.org");
            assertThat(mail.wire()).contains("\r\n..this line starts with a dot\r\n");
            assertThat(mail.wire().lines()).allSatisfy(line -> assertThat(line.length()).isLessThanOrEqualTo(78));
            assertThat(header(mail.data(), "From")).isEqualTo("flows@example.org");
            assertThat(header(mail.data(), "To")).isEqualTo("ada@example.org, bob@example.org");
            assertThat(decodedSubject(header(mail.data(), "Subject"))).isEqualTo(subject);
            assertThat(header(mail.data(), "MIME-Version")).isEqualTo("1.0");
            assertThat(header(mail.data(), "Content-Type")).isEqualTo("text/plain; charset=UTF-8");
            assertThat(header(mail.data(), "Content-Transfer-Encoding")).isEqualTo("quoted-printable");
            assertThat(header(mail.data(), "Date")).isNotBlank();
            assertThat(header(mail.data(), "Message-ID")).matches("<[0-9a-f-]{36}@example\\.org>");
            assertThat(decodedBody(mail.data())).isEqualTo(body.replace("\n", "\r\n") + "\r\n");
        });
    }

    @Test
    void aPlainSubjectIsSentAsItIs() {
        mailer().send(new FormMail(List.of("ada@example.org"), "Please answer", "x"));

        assertThat(header(server.received().get(0).data(), "Subject")).isEqualTo("Please answer");
    }

    @Test
    void withAUserTheMailerLogsInWithAuthPlainAsConfigured() {
        mailer("ada", "s3cret pass", Duration.ofSeconds(5), server.port())
                .send(new FormMail(List.of("bob@example.org"), "s", "b"));

        assertThat(server.logins()).containsExactly(new LoopbackSmtpServer.Login("PLAIN", "ada", "s3cret pass"));
        assertThat(server.received()).hasSize(1);
    }

    @Test
    void aServerOfferingOnlyLoginGetsAuthLogin() {
        server.offering("LOGIN");

        mailer("ada", "s3cret", Duration.ofSeconds(5), server.port())
                .send(new FormMail(List.of("bob@example.org"), "s", "b"));

        assertThat(server.logins()).containsExactly(new LoopbackSmtpServer.Login("LOGIN", "ada", "s3cret"));
    }

    @Test
    void aRefusedLoginNamesTheUserAndNeverThePassword() {
        server.password("the-right-one");

        assertThatThrownBy(() -> mailer("ada", "wrong-secret", Duration.ofSeconds(5), server.port())
                .send(new FormMail(List.of("bob@example.org"), "s", "b")))
                .isInstanceOf(FormMailException.class)
                .hasMessageStartingWith("the mail server refused the login of the user ada: 535")
                .message().doesNotContain("wrong-secret");
        assertThat(server.received()).isEmpty();
    }

    @Test
    void aRefusedRecipientIsAReadableErrorAndNobodyGetsTheMail() {
        server.refuse("bob@example.org");

        assertThatThrownBy(() -> mailer().send(new FormMail(List.of("ada@example.org", "bob@example.org"), "s",
                "b"))).isInstanceOf(FormMailException.class)
                .hasMessage("the mail server refused the recipient bob@example.org: 550 5.1.1 <bob@example.org>: "
                        + "Recipient address rejected: User unknown");
        assertThat(server.received()).isEmpty();
    }

    @Test
    void aServerThatNeverAnswersTimesOutWithinTheConfiguredTimeout() throws Exception {
        try (LoopbackSmtpServer silent = LoopbackSmtpServer.silent()) {
            long start = System.nanoTime();

            assertThatThrownBy(() -> mailer(null, null, Duration.ofMillis(300), silent.port())
                    .send(new FormMail(List.of("ada@example.org"), "s", "b")))
                    .isInstanceOf(FormMailException.class)
                    .hasMessage("the mail server 127.0.0.1:" + silent.port()
                            + " did not answer the greeting within 300 ms");
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(2));
        }
    }

    @Test
    void aClosedPortIsAReadableError() throws Exception {
        int closed;
        try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closed = probe.getLocalPort();
        }

        assertThatThrownBy(() -> mailer(null, null, Duration.ofSeconds(2), closed)
                .send(new FormMail(List.of("ada@example.org"), "s", "b")))
                .isInstanceOf(FormMailException.class)
                .hasMessage("the mail server 127.0.0.1:" + closed + " refused the connection");
    }

    @Test
    void aRecipientThatIsNoBareAddressIsRefusedBeforeAnythingIsSent() {
        assertThatThrownBy(() -> mailer().send(new FormMail(List.of("ada@example.org\r\nRCPT TO:<x@y.z>"), "s",
                "b"))).isInstanceOf(FormMailException.class).hasMessageContaining("is not a bare e-mail address");
        assertThat(server.received()).isEmpty();
    }

    @Test
    void theSettingsNeverShowThePassword() {
        SmtpSettings settings = new SmtpSettings("mail.example.org", 587, "flows@example.org", "ada", "s3cret",
                null);

        assertThat(settings.toString()).doesNotContain("s3cret").contains("(hidden)");
        assertThat(settings.timeout()).isEqualTo(Duration.ofSeconds(10));
    }

    /** A header's value, its folded lines joined as a reader unfolds them. */
    private static String header(String data, String name) {
        String headers = data.substring(0, data.indexOf("\r\n\r\n")).replace("\r\n ", " ");
        return headers.lines().filter(line -> line.startsWith(name + ": ")).findFirst()
                .map(line -> line.substring(name.length() + 2)).orElse(null);
    }

    /** RFC 2047: encoded-words side by side decode to one text, the white space between them dropped. */
    private static String decodedSubject(String value) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        Matcher word = ENCODED_WORD.matcher(value);
        while (word.find()) {
            bytes.writeBytes(Base64.getDecoder().decode(word.group(1)));
        }
        return bytes.toString(StandardCharsets.UTF_8);
    }

    /** RFC 2045 quoted-printable: soft breaks dropped, each =XX its byte. */
    private static String decodedBody(String data) {
        String body = data.substring(data.indexOf("\r\n\r\n") + 4).replace("=\r\n", "");
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        for (int i = 0; i < body.length(); i++) {
            char c = body.charAt(i);
            if (c == '=') {
                bytes.write(Integer.parseInt(body.substring(i + 1, i + 3), 16));
                i += 2;
            } else {
                bytes.write(c);
            }
        }
        return bytes.toString(StandardCharsets.UTF_8);
    }
}
