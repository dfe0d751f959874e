package dev.hexaflow.adapters.clients.mail;

import java.time.Duration;
import java.util.regex.Pattern;

/**
 * Where form mails go out: the mail server, the sender's bare address, and a user and password when the server
 * wants a login (both or neither). The timeout bounds the connection and each of the server's replies.
 */
public record SmtpSettings(String host, int port, String from, String user, String password, Duration timeout) {

    /** Connecting and each reply, unless the settings say otherwise. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(10);
    /** As the envelope and the From header carry it: one address, nothing a header would read as more. */
    static final Pattern ADDRESS = Pattern.compile("[^\\s@<>,;:\"()\\[\\]\\\\]+@[^\\s@<>,;:\"()\\[\\]\\\\]+");

    public SmtpSettings {
        if (host == null || host.isBlank()) {
            throw new IllegalArgumentException("the SMTP settings need a host");
        }
        if (port < 1 || port > 65_535) {
            throw new IllegalArgumentException("the SMTP port must be between 1 and 65535, not " + port);
        }
        if (from == null || !ADDRESS.matcher(from.strip()).matches()) {
            throw new IllegalArgumentException("the SMTP from must be a bare address such as flows@example.org");
        }
        user = user == null || user.isBlank() ? null : user;
        password = password == null || password.isEmpty() ? null : password;
        if ((user == null) != (password == null)) {
            throw new IllegalArgumentException("the SMTP user and password go together: set both or neither");
        }
        timeout = timeout == null ? DEFAULT_TIMEOUT : timeout;
        if (timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("the SMTP timeout must be positive");
        }
        host = host.strip();
        from = from.strip();
    }

    /** A server that takes mail without a login. */
    public SmtpSettings(String host, int port, String from) {
        this(host, port, from, null, null, DEFAULT_TIMEOUT);
    }

    /** Whether the mailer logs in before it sends. */
    public boolean authenticates() {
        return user != null;
    }

    /** Settings end up in logs and error pages: the password never does. */
    @Override
    public String toString() {
        return "SmtpSettings[host=" + host + ", port=" + port + ", from=" + from + ", user=" + user
                + ", password=" + (password == null ? "none" : "(hidden)") + ", timeout=" + timeout + "]";
    }
}
