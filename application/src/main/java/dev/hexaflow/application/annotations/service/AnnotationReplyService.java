package dev.hexaflow.application.annotations.service;

import dev.hexaflow.application.annotations.port.in.AnnotationReplyUseCase;
import dev.hexaflow.application.annotations.port.out.AnnotationRepository;
import dev.hexaflow.application.apps.port.out.AppRepository;
import dev.hexaflow.application.common.ApiError;
import dev.hexaflow.application.common.ApiException;
import dev.hexaflow.domain.annotation.AnnotationSetting;
import java.time.Clock;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;

/**
 * Dify's enable and disable jobs of an app's annotation reply. Dify's job embeds every annotation into a vector
 * index; Hexaflow matches against the kept annotations, so the job has nothing left to do once the setting is
 * kept, and is answered {@code completed}. A job's status is kept in this process for Dify's ten minutes (its
 * Redis key's life), the newest {@value #MAX_JOBS} at most.
 */
public final class AnnotationReplyService implements AnnotationReplyUseCase {

    static final String COMPLETED = "completed";
    static final long JOB_SECONDS = 600;
    static final int MAX_JOBS = 10_000;
    /** The longest embedding provider or model name Dify's collection binding keeps. */
    static final int MAX_NAME = 255;

    private final AnnotatedApps apps;
    private final AnnotationRepository annotations;
    private final Clock clock;
    private final Map<String, Long> jobs = new LinkedHashMap<>();

    public AnnotationReplyService(AppRepository apps, AnnotationRepository annotations, Clock clock) {
        this.apps = new AnnotatedApps(apps);
        this.annotations = annotations;
        this.clock = clock;
    }

    @Override
    public ReplyJob act(ReplyActionCommand command) {
        apps.chatApp(command.appId());
        Double threshold = command.scoreThreshold();
        if (threshold == null) {
            throw new ApiException(ApiError.INVALID_PARAM, "score_threshold is required");
        }
        if (threshold.isNaN() || threshold < 0 || threshold > 1) {
            throw new ApiException(ApiError.INVALID_PARAM, "score_threshold must be between 0 and 1");
        }
        String provider = name("embedding_provider_name", command.embeddingProviderName());
        String model = name("embedding_model_name", command.embeddingModelName());
        long now = clock.instant().getEpochSecond();
        switch (command.action()) {
            case "enable" -> annotations.saveSetting(new AnnotationSetting(command.appId(), threshold, provider,
                    model, now));
            case "disable" -> annotations.removeSetting(command.appId());
            default -> throw new ApiException(ApiError.INVALID_PARAM, "Unsupported annotation reply action");
        }
        String jobId = UUID.randomUUID().toString();
        synchronized (jobs) {
            jobs.put(key(command.appId(), command.action(), jobId), now + JOB_SECONDS);
            // Jobs are kept in the order they end, so the expired and the surplus are the first.
            Iterator<Map.Entry<String, Long>> oldest = jobs.entrySet().iterator();
            while (oldest.hasNext()) {
                if (oldest.next().getValue() >= now && jobs.size() <= MAX_JOBS) {
                    break;
                }
                oldest.remove();
            }
        }
        return new ReplyJob(jobId, COMPLETED, "");
    }

    @Override
    public ReplyJob status(String appId, String action, String jobId) {
        apps.chatApp(appId);
        if (!AnnotatedApps.isUuid(jobId)) {
            throw new ApiException(ApiError.NOT_FOUND, "The requested URL was not found on the server.");
        }
        Long until;
        synchronized (jobs) {
            until = jobs.get(key(appId, action, jobId.toLowerCase(Locale.ROOT)));
        }
        if (until == null || until < clock.instant().getEpochSecond()) {
            throw new ApiException(ApiError.INVALID_PARAM, "The job does not exist.");
        }
        return new ReplyJob(jobId, COMPLETED, "");
    }

    private static String name(String field, String value) {
        if (value == null) {
            throw new ApiException(ApiError.INVALID_PARAM, field + " is required");
        }
        if (value.length() > MAX_NAME) {
            throw new ApiException(ApiError.INVALID_PARAM, field + " is too long. Maximum " + MAX_NAME
                    + " characters allowed.");
        }
        return value;
    }

    private static String key(String appId, String action, String jobId) {
        return appId + "/" + action + "/" + jobId;
    }
}
