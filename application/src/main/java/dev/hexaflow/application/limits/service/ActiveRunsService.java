package dev.hexaflow.application.limits.service;

import dev.hexaflow.application.common.ApiError;
import dev.hexaflow.application.common.ApiException;
import dev.hexaflow.application.limits.port.in.ManageLimitsUseCase;
import dev.hexaflow.application.runs.port.out.ActiveRuns;
import dev.hexaflow.domain.limit.AppLimits;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Active runs over {@link SharedCounts}' gauges {@code active|app|<appId>} and {@code active|user|<appId>|<user>}:
 * a run is admitted while this instance's gauge plus the others' (as of the last exchange) is under the limit.
 * An app's gauge counts every run, so that a limit set later sees the runs already under way; an end user's only
 * while the app limits end users, so that an app with many end users keeps no gauge for each.
 */
public final class ActiveRunsService implements ActiveRuns {

    private final ManageLimitsUseCase limits;
    private final SharedCounts counts;

    public ActiveRunsService(ManageLimitsUseCase limits, SharedCounts counts) {
        this.limits = limits;
        this.counts = counts;
    }

    /** The gauge of an app's runs under way on this instance. */
    public static String appKey(String appId) {
        return "active|app|" + appId;
    }

    /** The gauge of an end user's runs of an app under way on this instance. */
    public static String userKey(String appId, String user) {
        return "active|user|" + appId + "|" + user;
    }

    @Override
    public Admission admit(String appId, String user) {
        AppLimits limit = limits.effective(appId);
        AtomicLong app = counts.gauge(appKey(appId));
        if (!take(app, counts.othersGauge(appKey(appId)), limit.activeRuns())) {
            // Dify's words when APP_MAX_ACTIVE_REQUESTS is reached (AppInvokeQuotaExceededError).
            throw new ApiException(ApiError.TOO_MANY_REQUESTS, "Too many requests. Please try again later. The "
                    + "current maximum concurrent requests allowed for " + appId + " is " + limit.activeRuns()
                    + ".");
        }
        if (limit.activeRunsPerEndUser() == 0) {
            return once(app, null);
        }
        String key = userKey(appId, user);
        AtomicLong own = counts.gauge(key);
        if (!take(own, counts.othersGauge(key), limit.activeRunsPerEndUser())) {
            app.decrementAndGet();
            throw new ApiException(ApiError.TOO_MANY_REQUESTS, "Too many requests. Please try again later. The "
                    + "current maximum concurrent requests allowed for each end user of " + appId + " is "
                    + limit.activeRunsPerEndUser() + ".");
        }
        return once(app, own);
    }

    /** Raises {@code gauge} unless it and {@code others} reach {@code limit} (0: no limit). */
    private static boolean take(AtomicLong gauge, long others, int limit) {
        while (true) {
            long now = gauge.get();
            if (limit > 0 && now + others >= limit) {
                return false;
            }
            if (gauge.compareAndSet(now, now + 1)) {
                return true;
            }
        }
    }

    private static Admission once(AtomicLong app, AtomicLong user) {
        AtomicBoolean given = new AtomicBoolean();
        return () -> {
            if (given.compareAndSet(false, true)) {
                app.decrementAndGet();
                if (user != null) {
                    user.decrementAndGet();
                }
            }
        };
    }
}
