package dev.hexaflow.app;

import dev.hexaflow.adapters.http.ClientLimits;
import dev.hexaflow.domain.app.UploadLimits;
import java.time.Duration;
import java.util.Map;

/**
 * The workflow service's settings, from HEXAFLOW_* variables: runs in flight per app before 429 (0: no limit),
 * the interval of SSE pings (Dify's 10 s), upload limits per kind of file in MB (Dify's 10, 100, 50, 15), and
 * what one HTTP client may hold ({@link ClientLimits#DEFAULTS}).
 */
public record ServiceSettings(int maxRunsPerApp, Duration pingInterval, UploadLimits uploads, ClientLimits clients) {

    public static final ServiceSettings DEFAULTS = new ServiceSettings(0, Duration.ofSeconds(10), UploadLimits.DIFY,
            ClientLimits.DEFAULTS);

    public ServiceSettings {
        if (maxRunsPerApp < 0) {
            throw new UsageException("HEXAFLOW_MAX_RUNS_PER_APP must not be negative");
        }
        clients = clients == null ? ClientLimits.DEFAULTS : clients;
    }

    /** With the default limits on HTTP clients. */
    public ServiceSettings(int maxRunsPerApp, Duration pingInterval, UploadLimits uploads) {
        this(maxRunsPerApp, pingInterval, uploads, ClientLimits.DEFAULTS);
    }

    public static ServiceSettings fromEnvironment(Map<String, String> env) {
        try {
            return new ServiceSettings(number(env, "HEXAFLOW_MAX_RUNS_PER_APP", 0, 0),
                    Duration.ofMillis(number(env, "HEXAFLOW_SSE_PING_MILLIS", 10_000, 1)),
                    new UploadLimits(number(env, "HEXAFLOW_UPLOAD_IMAGE_MB", 10, 1),
                            number(env, "HEXAFLOW_UPLOAD_VIDEO_MB", 100, 1),
                            number(env, "HEXAFLOW_UPLOAD_AUDIO_MB", 50, 1),
                            number(env, "HEXAFLOW_UPLOAD_FILE_MB", 15, 1)),
                    new ClientLimits(number(env, "HEXAFLOW_HTTP_REQUESTS_PER_ADDRESS", 1000, 0),
                            number(env, "HEXAFLOW_HTTP_MIN_BODY_BYTES_PER_SECOND", 1024, 0),
                            Duration.ofMillis(number(env, "HEXAFLOW_HTTP_BODY_GRACE_MILLIS", 5000, 0)),
                            Duration.ofMillis(number(env, "HEXAFLOW_HTTP_IDLE_TIMEOUT_MILLIS", 30_000, 1))));
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage());
        }
    }

    public ServiceSettings withMaxRunsPerApp(int limit) {
        return new ServiceSettings(limit, pingInterval, uploads, clients);
    }

    public ServiceSettings withPingInterval(Duration interval) {
        return new ServiceSettings(maxRunsPerApp, interval, uploads, clients);
    }

    public ServiceSettings withClients(ClientLimits limits) {
        return new ServiceSettings(maxRunsPerApp, pingInterval, uploads, limits);
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
