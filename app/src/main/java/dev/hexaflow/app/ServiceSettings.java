package dev.hexaflow.app;

import dev.hexaflow.domain.app.UploadLimits;
import java.time.Duration;
import java.util.Map;

/**
 * The workflow service's settings, from HEXAFLOW_* variables: runs in flight per app before 429 (0: no limit),
 * the interval of SSE pings (Dify's 10 s), and upload limits per kind of file in MB (Dify's 10, 100, 50, 15).
 */
public record ServiceSettings(int maxRunsPerApp, Duration pingInterval, UploadLimits uploads) {

    public static final ServiceSettings DEFAULTS = new ServiceSettings(0, Duration.ofSeconds(10), UploadLimits.DIFY);

    public ServiceSettings {
        if (maxRunsPerApp < 0) {
            throw new UsageException("HEXAFLOW_MAX_RUNS_PER_APP must not be negative");
        }
    }

    public static ServiceSettings fromEnvironment(Map<String, String> env) {
        try {
            return new ServiceSettings(number(env, "HEXAFLOW_MAX_RUNS_PER_APP", 0, 0),
                    Duration.ofMillis(number(env, "HEXAFLOW_SSE_PING_MILLIS", 10_000, 1)),
                    new UploadLimits(number(env, "HEXAFLOW_UPLOAD_IMAGE_MB", 10, 1),
                            number(env, "HEXAFLOW_UPLOAD_VIDEO_MB", 100, 1),
                            number(env, "HEXAFLOW_UPLOAD_AUDIO_MB", 50, 1),
                            number(env, "HEXAFLOW_UPLOAD_FILE_MB", 15, 1)));
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage());
        }
    }

    public ServiceSettings withMaxRunsPerApp(int limit) {
        return new ServiceSettings(limit, pingInterval, uploads);
    }

    public ServiceSettings withPingInterval(Duration interval) {
        return new ServiceSettings(maxRunsPerApp, interval, uploads);
    }

    private static int number(Map<String, String> env, String name, int otherwise, int least) {
        String text = env.get(name);
        if (text == null || text.isBlank()) {
            return otherwise;
        }
        try {
            int value = Integer.parseInt(text.strip());
            if (value < least) {
                throw new NumberFormatException();
            }
            return value;
        } catch (NumberFormatException e) {
            throw new UsageException(name + " must be a whole number of at least " + least + ", was '" + text + "'");
        }
    }
}
