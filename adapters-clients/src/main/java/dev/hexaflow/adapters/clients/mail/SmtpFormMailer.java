package dev.hexaflow.adapters.clients.mail;

import dev.hexaflow.adapters.clients.mail.SmtpConversation.Reply;
import dev.hexaflow.adapters.nodes.net.NetworkFailures;
import dev.hexaflow.adapters.nodes.net.OutageLog;
import dev.hexaflow.application.runs.port.out.FormMailer;
import java.io.IOException;
import java.net.ConnectException;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.ZonedDateTime;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.UUID;

/**
 * Hands form mails to one mail server over plain SMTP (RFC 5321), written here on a socket because a plain-text
 * mail needs a few commands, not a mail library. It logs in with AUTH PLAIN, or LOGIN when that is all the server
 * offers. There is no TLS: the server is meant to be a relay on the same host or network (credentials cross it in
 * the clear). Each mail is its own session; a recipient refused cancels the whole mail, so that nobody has it.
 */
public final class SmtpFormMailer implements FormMailer {

    /** By server (host and port): a relay that is down is two log lines, not one per form. */
    private static final OutageLog OUTAGES = new OutageLog("mail server");

    private final SmtpSettings settings;
    private final Clock clock;

    public SmtpFormMailer(SmtpSettings settings) {
        this(settings, Clock.systemDefaultZone());
    }

    /** @param clock dates the mails' Date header */
    public SmtpFormMailer(SmtpSettings settings, Clock clock) {
        this.settings = settings;
        this.clock = clock;
    }

    @Override
    public void send(FormMail mail) {
        for (String address : mail.to()) {
            // A caller other than FormMails may pass anything: an address is one envelope line, never more.
            if (!SmtpSettings.ADDRESS.matcher(address).matches()) {
                throw new FormMailException("the recipient " + address.replaceAll("\\p{Cntrl}", " ").strip()
                        + " is not a bare e-mail address");
            }
        }
        String message = SmtpMessage.of(settings.from(), mail, ZonedDateTime.now(clock), messageId());
        String server = settings.host() + ":" + settings.port();
        Socket socket = connect(server);
        SmtpConversation smtp = null;
        try {
            socket.setSoTimeout(timeoutMillis());
            smtp = new SmtpConversation(socket);
            converse(smtp, socket, mail.to(), message);
        } catch (SocketTimeoutException e) {
            throw failed(server, "the mail server " + server + " did not answer " + stepOf(smtp) + " within "
                    + timeoutMillis() + " ms", e);
        } catch (IOException e) {
            throw failed(server, "the connection to the mail server " + server + " failed at " + stepOf(smtp)
                    + ": " + NetworkFailures.reason(e), e);
        } finally {
            close(socket);
        }
        OUTAGES.answered(server);
    }

    private Socket connect(String server) {
        InetSocketAddress address = new InetSocketAddress(settings.host(), settings.port());
        if (address.isUnresolved()) {
            throw failed(server, "the mail server's host " + settings.host() + " does not resolve", null);
        }
        Socket socket = new Socket();
        try {
            socket.connect(address, timeoutMillis());
            return socket;
        } catch (SocketTimeoutException e) {
            close(socket);
            throw failed(server, "no connection to the mail server " + server + " within " + timeoutMillis()
                    + " ms", e);
        } catch (ConnectException e) {
            close(socket);
            throw failed(server, "the mail server " + server + " refused the connection", e);
        } catch (IOException e) {
            close(socket);
            throw failed(server, "the mail server " + server + " could not be reached: "
                    + NetworkFailures.reason(e), e);
        }
    }

    /** The session, greeting to QUIT; a refusal is thrown as it comes, after a polite QUIT. */
    private void converse(SmtpConversation smtp, Socket socket, List<String> to, String message)
            throws IOException {
        expect(smtp, smtp.read("the greeting"), "the mail server did not greet", 220);
        Reply hello = smtp.send("EHLO " + helloName(socket.getLocalAddress()), "EHLO");
        expect(smtp, hello, "the mail server refused EHLO", 250);
        if (settings.authenticates()) {
            logIn(smtp, hello);
        }
        expect(smtp, smtp.send("MAIL FROM:<" + settings.from() + ">", "MAIL FROM"),
                "the mail server refused the sender " + settings.from(), 250);
        for (String recipient : to) {
            expect(smtp, smtp.send("RCPT TO:<" + recipient + ">", "RCPT TO"),
                    "the mail server refused the recipient " + recipient, 250, 251);
        }
        expect(smtp, smtp.send("DATA", "DATA"), "the mail server refused to take the message", 354);
        expect(smtp, smtp.sendMessage(message), "the mail server refused the message", 250);
        // The mail is the server's now: how QUIT goes changes nothing.
        smtp.quitQuietly();
    }

    /** AUTH PLAIN (one round) where offered, else LOGIN; the password goes only in base64 on the wire. */
    private void logIn(SmtpConversation smtp, Reply hello) throws IOException {
        // The first line is the server's name; each further line is one extension, "AUTH PLAIN LOGIN" among them.
        List<String> mechanisms = hello.lines().stream().skip(1).map(line -> line.toUpperCase(Locale.ROOT))
                .filter(line -> line.startsWith("AUTH ") || line.startsWith("AUTH="))
                .flatMap(line -> List.of(line.substring(5).strip().split("[\\s=]+")).stream()).toList();
        String refused = "the mail server refused the login of the user " + settings.user();
        if (mechanisms.contains("PLAIN")) {
            String credentials = "\0" + settings.user() + "\0" + settings.password();
            expect(smtp, smtp.send("AUTH PLAIN " + base64(credentials), "AUTH PLAIN"), refused, 235);
        } else if (mechanisms.contains("LOGIN")) {
            expect(smtp, smtp.send("AUTH LOGIN", "AUTH LOGIN"), refused, 334);
            expect(smtp, smtp.send(base64(settings.user()), "AUTH LOGIN (the user)"), refused, 334);
            expect(smtp, smtp.send(base64(settings.password()), "AUTH LOGIN (the password)"), refused, 235);
        } else {
            smtp.quitQuietly();
            throw new FormMailException("the mail server offers no login by AUTH PLAIN or LOGIN, yet a user is "
                    + "configured for it");
        }
    }

    private static void expect(SmtpConversation smtp, Reply reply, String refusal, int... codes) {
        if (!reply.is(codes)) {
            smtp.quitQuietly();
            throw new FormMailException(refusal + ": " + reply.shown());
        }
    }

    /** EHLO's argument: this end's address as a literal, since a server's host name may not resolve. */
    static String helloName(InetAddress local) {
        if (local instanceof Inet6Address) {
            String literal = local.getHostAddress();
            int scope = literal.indexOf('%');
            return "[IPv6:" + (scope < 0 ? literal : literal.substring(0, scope)) + "]";
        }
        return "[" + local.getHostAddress() + "]";
    }

    private static String stepOf(SmtpConversation smtp) {
        return smtp == null ? "the greeting" : smtp.step();
    }

    private String messageId() {
        String from = settings.from();
        return "<" + UUID.randomUUID() + from.substring(from.lastIndexOf('@')) + ">";
    }

    private int timeoutMillis() {
        return (int) Math.min(Integer.MAX_VALUE, settings.timeout().toMillis());
    }

    private static FormMailException failed(String server, String reason, Throwable cause) {
        OUTAGES.failed(server, reason);
        return new FormMailException(reason, cause);
    }

    private static String base64(String text) {
        return Base64.getEncoder().encodeToString(text.getBytes(StandardCharsets.UTF_8));
    }

    private static void close(Socket socket) {
        try {
            socket.close();
        } catch (IOException e) {
            // The mail went out or the failure is already told: a failing close adds nothing.
        }
    }
}
