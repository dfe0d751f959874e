package dev.hexaflow.app.config;

import dev.hexaflow.app.cli.UsageException;
import dev.hexaflow.domain.limit.RateLimit;
import java.util.Map;
import java.util.Optional;

/**
 * What one campus key may ask of the feed: HEXAFLOW_CAMPUS_RATE_PER_MINUTE requests a minute, up to
 * HEXAFLOW_CAMPUS_RATE_BURST at once (the rate by default); no limit unless the rate is set, as the real API has
 * had none since 2016.
 */
public record CampusSettings(Optional<RateLimit> rate) {

    public static final CampusSettings OFF = new CampusSettings(Optional.empty());

    public CampusSettings {
        rate = rate == null ? Optional.empty() : rate;
    }

    public static CampusSettings fromEnvironment(Map<String, String> env) {
        int perMinute = number(env, "HEXAFLOW_CAMPUS_RATE_PER_MINUTE", 0);
        int burst = number(env, "HEXAFLOW_CAMPUS_RATE_BURST", 0);
        if (perMinute == 0) {
            if (burst != 0) {
                throw new UsageException("HEXAFLOW_CAMPUS_RATE_BURST needs HEXAFLOW_CAMPUS_RATE_PER_MINUTE");
            }
            return OFF;
        }
        if (perMinute < 0 || burst < 0) {
            throw new UsageException("HEXAFLOW_CAMPUS_RATE_PER_MINUTE and HEXAFLOW_CAMPUS_RATE_BURST must be at "
                    + "least 1");
        }
        return new CampusSettings(Optional.of(new RateLimit(perMinute, burst == 0 ? perMinute : burst)));
    }

    private static int number(Map<String, String> env, String name, int otherwise) {
        String text = env.get(name);
        if (text == null || text.isBlank()) {
            return otherwise;
        }
        try {
            return Integer.parseInt(text.strip());
        } catch (NumberFormatException e) {
            throw new UsageException(name + " must be a whole number, was '" + text + "'");
        }
    }
}
