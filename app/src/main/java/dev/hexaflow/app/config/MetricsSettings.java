package dev.hexaflow.app.config;

import dev.hexaflow.app.cli.UsageException;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Whether {@code GET /metrics} answers (HEXAFLOW_METRICS, off by default: an operator chooses to publish what the
 * server is doing), and the bearer token a scrape must show (HEXAFLOW_METRICS_TOKEN; setting one turns metrics on).
 */
public record MetricsSettings(boolean on, Optional<String> token) {

    public static final MetricsSettings OFF = new MetricsSettings(false, Optional.empty());

    public MetricsSettings {
        token = token == null ? Optional.empty() : token.filter(value -> !value.isBlank());
        if (token.isPresent() && token.get().length() < 16) {
            throw new UsageException("HEXAFLOW_METRICS_TOKEN must be at least 16 characters long");
        }
        if (token.isPresent() && !on) {
            throw new UsageException("HEXAFLOW_METRICS_TOKEN is set but HEXAFLOW_METRICS is off");
        }
    }

    /** On, answering every scrape, or only those bearing {@code token} when it is not null. */
    public static MetricsSettings on(String token) {
        return new MetricsSettings(true, Optional.ofNullable(token));
    }

    public static MetricsSettings fromEnvironment(Map<String, String> env) {
        Optional<String> token = Optional.ofNullable(env.get("HEXAFLOW_METRICS_TOKEN")).map(String::strip)
                .filter(value -> !value.isEmpty());
        String setting = env.getOrDefault("HEXAFLOW_METRICS", "").strip().toLowerCase(Locale.ROOT);
        boolean on = switch (setting) {
            case "" -> token.isPresent();
            case "on", "true" -> true;
            case "off", "false" -> false;
            default -> throw new UsageException("HEXAFLOW_METRICS takes on or off, was '"
                    + env.get("HEXAFLOW_METRICS") + "'");
        };
        return new MetricsSettings(on, token);
    }
}
