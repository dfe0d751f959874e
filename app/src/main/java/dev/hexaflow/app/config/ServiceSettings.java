package dev.hexaflow.app.config;

import dev.hexaflow.adapters.http.server.ClientLimits;
import dev.hexaflow.adapters.http.server.RequestLimits;
import dev.hexaflow.app.cli.UsageException;
import dev.hexaflow.domain.app.PageUploadQuota;
import dev.hexaflow.domain.app.RunRetention;
import dev.hexaflow.domain.app.UploadLimits;
import dev.hexaflow.domain.knowledge.ChunkBudget;
import dev.hexaflow.domain.webhook.RetrySchedule;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * The workflow service's settings, from HEXAFLOW_* variables: runs in flight per app before 429 (0: no limit),
 * the interval of SSE pings (Dify's 10 s), upload limits per kind of file in MB (Dify's 10, 100, 50, 15), and the
 * origins whose pages may call the Service API from a browser (HEXAFLOW_CORS_ORIGINS, comma-separated; Dify's
 * "*" by default), and how long a shutdown lets runs in flight finish before it stops them
 * (HEXAFLOW_SHUTDOWN_GRACE_SECONDS, 30 by default, as Kubernetes waits 30 s before it kills), and what one HTTP
 * client may hold ({@link ClientLimits#DEFAULTS}; HEXAFLOW_HTTP_*), and how long ended runs are kept
 * (HEXAFLOW_RUN_RETENTION_DAYS, HEXAFLOW_RUN_RETENTION_COUNT per app; for good by default), and what one Service
 * API request may hold ({@link RequestLimits#DEFAULTS}; HEXAFLOW_MAX_TEXT_CHARS, HEXAFLOW_MAX_JSON_BODY_KB), and what a
 * web page's visitors may upload ({@link PageUploadQuota#DEFAULTS}; HEXAFLOW_PAGE_UPLOADS_PER_HOUR,
 * HEXAFLOW_PAGE_UPLOAD_MB_PER_DAY), whether workflows may call this server itself (HEXAFLOW_OUTBOUND_ALLOW_SELF;
 * not by default: its loopback address is refused like any other), and the free space on the data directory's disk
 * below which new work is refused (HEXAFLOW_MIN_FREE_DISK_MB, {@value #DEFAULT_MIN_FREE_DISK_MB} by default), and
 * the most chunks one knowledge document's split may make (HEXAFLOW_MAX_CHUNKS_PER_DOCUMENT,
 * {@link ChunkBudget#DEFAULT_MAX_CHUNKS}).
 */
public record ServiceSettings(int maxRunsPerApp, Duration pingInterval, UploadLimits uploads,
        List<String> corsOrigins, Duration shutdownGrace, ClientLimits clients, RunRetention retention,
        RetrySchedule webhooks, RequestLimits requests, PageUploadQuota pageUploads, boolean outboundToItself,
        long minFreeDiskMb, int maxChunksPerDocument) {

    /**
     * Room for what is under way when new work stops: the H2 file grows by rewriting live chunks beside old ones,
     * and the largest upload (a video) is 100 MB by default; 64 MB keeps a burst of runs and the store's own
     * housekeeping off a full disk, and is small beside any disk a server runs on.
     */
    public static final long DEFAULT_MIN_FREE_DISK_MB = 64;

    public static final ServiceSettings DEFAULTS = new ServiceSettings(0, Duration.ofSeconds(10), UploadLimits.DIFY,
            List.of("*"), Duration.ofSeconds(30), ClientLimits.DEFAULTS, RunRetention.KEEP_ALL,
            RetrySchedule.STANDARD, RequestLimits.DEFAULTS, PageUploadQuota.DEFAULTS, false, DEFAULT_MIN_FREE_DISK_MB,
            ChunkBudget.DEFAULT_MAX_CHUNKS);

    public ServiceSettings {
        if (maxRunsPerApp < 0) {
            throw new UsageException("HEXAFLOW_MAX_RUNS_PER_APP must not be negative");
        }
        if (minFreeDiskMb < 0) {
            throw new UsageException("HEXAFLOW_MIN_FREE_DISK_MB must not be negative");
        }
        if (maxChunksPerDocument < 1) {
            throw new UsageException("HEXAFLOW_MAX_CHUNKS_PER_DOCUMENT must be at least 1, was "
                    + maxChunksPerDocument);
        }
        clients = clients == null ? ClientLimits.DEFAULTS : clients;
        retention = retention == null ? RunRetention.KEEP_ALL : retention;
        webhooks = webhooks == null ? RetrySchedule.STANDARD : webhooks;
        requests = requests == null ? RequestLimits.DEFAULTS : requests;
        pageUploads = pageUploads == null ? PageUploadQuota.DEFAULTS : pageUploads;
        corsOrigins = List.copyOf(corsOrigins);
        for (String origin : corsOrigins) {
            if (!origin.equals("*") && !origin.matches("(?i)https?://[^/\\s]+/?")) {
                throw new UsageException("HEXAFLOW_CORS_ORIGINS takes '*' or origins such as https://app.example.com,"
                        + " separated by commas; '" + origin + "' is not one");
            }
        }
    }

    public static ServiceSettings fromEnvironment(Map<String, String> env) {
        try {
            return new ServiceSettings(number(env, "HEXAFLOW_MAX_RUNS_PER_APP", 0, 0),
                    Duration.ofMillis(number(env, "HEXAFLOW_SSE_PING_MILLIS", 10_000, 1)),
                    new UploadLimits(number(env, "HEXAFLOW_UPLOAD_IMAGE_MB", 10, 1),
                            number(env, "HEXAFLOW_UPLOAD_VIDEO_MB", 100, 1),
                            number(env, "HEXAFLOW_UPLOAD_AUDIO_MB", 50, 1),
                            number(env, "HEXAFLOW_UPLOAD_FILE_MB", 15, 1)),
                    origins(env.getOrDefault("HEXAFLOW_CORS_ORIGINS", "*")),
                    Duration.ofSeconds(number(env, "HEXAFLOW_SHUTDOWN_GRACE_SECONDS", 30, 0)),
                    new ClientLimits(number(env, "HEXAFLOW_HTTP_REQUESTS_PER_ADDRESS", 1000, 0),
                            number(env, "HEXAFLOW_HTTP_MIN_BODY_BYTES_PER_SECOND", 1024, 0),
                            Duration.ofMillis(number(env, "HEXAFLOW_HTTP_BODY_GRACE_MILLIS", 5000, 0)),
                            Duration.ofMillis(number(env, "HEXAFLOW_HTTP_IDLE_TIMEOUT_MILLIS", 30_000, 1))),
                    retention(number(env, "HEXAFLOW_RUN_RETENTION_DAYS", 0, 0),
                            number(env, "HEXAFLOW_RUN_RETENTION_COUNT", 0, 0)),
                    webhooks(env),
                    new RequestLimits(number(env, "HEXAFLOW_MAX_TEXT_CHARS", 200_000, 1),
                            1024L * number(env, "HEXAFLOW_MAX_JSON_BODY_KB", 4096, 1)),
                    new PageUploadQuota(number(env, "HEXAFLOW_PAGE_UPLOADS_PER_HOUR", 20, 0),
                            number(env, "HEXAFLOW_PAGE_UPLOAD_MB_PER_DAY", 1024, 0)),
                    flag(env, "HEXAFLOW_OUTBOUND_ALLOW_SELF"),
                    megabytes(env, "HEXAFLOW_MIN_FREE_DISK_MB", DEFAULT_MIN_FREE_DISK_MB),
                    number(env, "HEXAFLOW_MAX_CHUNKS_PER_DOCUMENT", ChunkBudget.DEFAULT_MAX_CHUNKS, 1));
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage());
        }
    }

    public ServiceSettings withMaxRunsPerApp(int limit) {
        return new ServiceSettings(limit, pingInterval, uploads, corsOrigins, shutdownGrace, clients, retention,
                webhooks, requests, pageUploads, outboundToItself, minFreeDiskMb, maxChunksPerDocument);
    }

    public ServiceSettings withPingInterval(Duration interval) {
        return new ServiceSettings(maxRunsPerApp, interval, uploads, corsOrigins, shutdownGrace, clients, retention,
                webhooks, requests, pageUploads, outboundToItself, minFreeDiskMb, maxChunksPerDocument);
    }

    public ServiceSettings withCorsOrigins(List<String> origins) {
        return new ServiceSettings(maxRunsPerApp, pingInterval, uploads, origins, shutdownGrace, clients, retention,
                webhooks, requests, pageUploads, outboundToItself, minFreeDiskMb, maxChunksPerDocument);
    }

    public ServiceSettings withShutdownGrace(Duration grace) {
        return new ServiceSettings(maxRunsPerApp, pingInterval, uploads, corsOrigins, grace, clients, retention,
                webhooks, requests, pageUploads, outboundToItself, minFreeDiskMb, maxChunksPerDocument);
    }

    public ServiceSettings withClients(ClientLimits limits) {
        return new ServiceSettings(maxRunsPerApp, pingInterval, uploads, corsOrigins, shutdownGrace, limits, retention,
                webhooks, requests, pageUploads, outboundToItself, minFreeDiskMb, maxChunksPerDocument);
    }

    /** Runs are kept this many days, or as the newest this many of each app; 0 for no such bound. */
    public ServiceSettings withRetention(RunRetention kept) {
        return new ServiceSettings(maxRunsPerApp, pingInterval, uploads, corsOrigins, shutdownGrace, clients, kept,
                webhooks, requests, pageUploads, outboundToItself, minFreeDiskMb, maxChunksPerDocument);
    }

    /** Completion webhooks are retried on this schedule, each attempt waiting this long for an answer. */
    public ServiceSettings withWebhooks(RetrySchedule schedule) {
        return new ServiceSettings(maxRunsPerApp, pingInterval, uploads, corsOrigins, shutdownGrace, clients, retention,
                schedule, requests, pageUploads, outboundToItself, minFreeDiskMb, maxChunksPerDocument);
    }

    /** Service API requests hold at most this: each text, and each JSON body. */
    public ServiceSettings withRequests(RequestLimits limits) {
        return new ServiceSettings(maxRunsPerApp, pingInterval, uploads, corsOrigins, shutdownGrace, clients, retention,
                webhooks, limits, pageUploads, outboundToItself, minFreeDiskMb, maxChunksPerDocument);
    }

    /** What a web page's visitors may upload: files an hour each, megabytes a day per app. */
    public ServiceSettings withPageUploads(PageUploadQuota quota) {
        return new ServiceSettings(maxRunsPerApp, pingInterval, uploads, corsOrigins, shutdownGrace, clients, retention,
                webhooks, requests, quota, outboundToItself, minFreeDiskMb, maxChunksPerDocument);
    }

    /** Whether workflows may call this server itself (and its sibling instances) at the address it serves. */
    public ServiceSettings withOutboundToItself(boolean allowed) {
        return new ServiceSettings(maxRunsPerApp, pingInterval, uploads, corsOrigins, shutdownGrace, clients, retention,
                webhooks, requests, pageUploads, allowed, minFreeDiskMb, maxChunksPerDocument);
    }

    /** New runs, uploads and knowledge writes are refused while the data directory's disk has less free than this. */
    public ServiceSettings withMinFreeDiskMb(long megabytes) {
        return new ServiceSettings(maxRunsPerApp, pingInterval, uploads, corsOrigins, shutdownGrace, clients, retention,
                webhooks, requests, pageUploads, outboundToItself, megabytes, maxChunksPerDocument);
    }

    /** The most chunks (child chunks included) one knowledge document's split may make. */
    public ServiceSettings withMaxChunksPerDocument(int limit) {
        return new ServiceSettings(maxRunsPerApp, pingInterval, uploads, corsOrigins, shutdownGrace, clients, retention,
                webhooks, requests, pageUploads, outboundToItself, minFreeDiskMb, limit);
    }

    private static long megabytes(Map<String, String> env, String name, long otherwise) {
        String text = env.get(name);
        if (text == null || text.isBlank()) {
            return otherwise;
        }
        try {
            long value = Long.parseLong(text.strip());
            if (value < 0 || value > Long.MAX_VALUE / (1024 * 1024)) {
                throw new NumberFormatException();
            }
            return value;
        } catch (NumberFormatException e) {
            throw new UsageException(name + " must be a whole number of MB, at least 0, was '" + text + "'");
        }
    }

    private static boolean flag(Map<String, String> env, String name) {
        String text = env.getOrDefault(name, "").strip();
        if (text.isEmpty() || text.equalsIgnoreCase("false")) {
            return false;
        }
        if (text.equalsIgnoreCase("true")) {
            return true;
        }
        throw new UsageException(name + " takes true or false, was '" + text + "'");
    }

    /**
     * HEXAFLOW_WEBHOOK_RETRY_SECONDS (the waits after each failed attempt, the last one repeated, comma-separated),
     * HEXAFLOW_WEBHOOK_GIVE_UP_HOURS (24) and HEXAFLOW_WEBHOOK_TIMEOUT_SECONDS (10).
     */
    private static RetrySchedule webhooks(Map<String, String> env) {
        RetrySchedule standard = RetrySchedule.STANDARD;
        String delays = env.get("HEXAFLOW_WEBHOOK_RETRY_SECONDS");
        List<Duration> waits = standard.delays();
        if (delays != null && !delays.isBlank()) {
            try {
                waits = Arrays.stream(delays.split(",")).map(String::strip)
                        .map(text -> Duration.ofSeconds(Long.parseLong(text))).toList();
            } catch (NumberFormatException e) {
                throw new UsageException("HEXAFLOW_WEBHOOK_RETRY_SECONDS takes whole seconds separated by commas, "
                        + "such as 10,30,60,300; was '" + delays + "'");
            }
        }
        return new RetrySchedule(waits,
                Duration.ofHours(number(env, "HEXAFLOW_WEBHOOK_GIVE_UP_HOURS", 24, 0)),
                Duration.ofSeconds(number(env, "HEXAFLOW_WEBHOOK_TIMEOUT_SECONDS", 10, 1)));
    }

    private static RunRetention retention(int days, int perApp) {
        return new RunRetention(days == 0 ? Optional.empty() : Optional.of(Duration.ofDays(days)),
                perApp == 0 ? OptionalInt.empty() : OptionalInt.of(perApp));
    }

    private static List<String> origins(String text) {
        List<String> origins = Arrays.stream(text.split(",")).map(String::strip).filter(o -> !o.isEmpty()).toList();
        return origins.isEmpty() ? List.of("*") : origins;
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
