package dev.hexaflow.app.config;

import dev.hexaflow.adapters.clients.mail.SmtpSettings;
import dev.hexaflow.app.cli.UsageException;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/**
 * Where the mails of paused runs' forms go out (HEXAFLOW_SMTP_*; none without HEXAFLOW_SMTP_HOST: a server
 * sends no mail until its operator names a relay), and the base URL their links use (HEXAFLOW_PUBLIC_URL; unset,
 * the server's own address, which a person elsewhere may not reach behind a proxy).
 */
public record MailSettings(Optional<SmtpSettings> smtp, Optional<String> publicUrl) {

    public static final MailSettings OFF = new MailSettings(Optional.empty(), Optional.empty());

    public MailSettings {
        smtp = smtp == null ? Optional.empty() : smtp;
        publicUrl = publicUrl == null ? Optional.empty() : publicUrl.map(MailSettings::baseUrl);
    }

    /** Mail through {@code smtp}, links on the server's own address. */
    public static MailSettings through(SmtpSettings smtp) {
        return new MailSettings(Optional.of(smtp), Optional.empty());
    }

    public static MailSettings fromEnvironment(Map<String, String> env) {
        Optional<String> publicUrl = Optional.ofNullable(env.get("HEXAFLOW_PUBLIC_URL")).map(String::strip)
                .filter(url -> !url.isEmpty());
        String host = env.getOrDefault("HEXAFLOW_SMTP_HOST", "").strip();
        if (host.isEmpty()) {
            return new MailSettings(Optional.empty(), publicUrl);
        }
        int port = number(env, "HEXAFLOW_SMTP_PORT", 25);
        int timeout = number(env, "HEXAFLOW_SMTP_TIMEOUT_SECONDS", 10);
        try {
            return new MailSettings(Optional.of(new SmtpSettings(host, port, env.get("HEXAFLOW_SMTP_FROM"),
                    env.get("HEXAFLOW_SMTP_USER"), env.get("HEXAFLOW_SMTP_PASSWORD"), Duration.ofSeconds(timeout))),
                    publicUrl);
        } catch (IllegalArgumentException e) {
            throw new UsageException("HEXAFLOW_SMTP_*: " + e.getMessage());
        }
    }

    /** An http or https URL with a host, without its trailing slash: a form's link is this and /form/TOKEN. */
    private static String baseUrl(String url) {
        try {
            URI uri = new URI(url);
            if (!("http".equals(uri.getScheme()) || "https".equals(uri.getScheme())) || uri.getHost() == null
                    || uri.getQuery() != null || uri.getFragment() != null) {
                throw new URISyntaxException(url, "not an http or https URL with a host");
            }
            return url.replaceAll("/+$", "");
        } catch (URISyntaxException e) {
            throw new UsageException("HEXAFLOW_PUBLIC_URL must be an http or https URL such as "
                    + "https://flows.example.org, was '" + url + "'");
        }
    }

    private static int number(Map<String, String> env, String name, int otherwise) {
        String text = env.get(name);
        if (text == null || text.isBlank()) {
            return otherwise;
        }
        try {
            int value = Integer.parseInt(text.strip());
            if (value < 1) {
                throw new NumberFormatException();
            }
            return value;
        } catch (NumberFormatException e) {
            throw new UsageException(name + " must be a whole number of at least 1, was '" + text + "'");
        }
    }
}
