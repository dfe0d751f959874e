package dev.hexaflow.application.limits.port.in;

import dev.hexaflow.domain.limit.AppLimits;
import java.util.Optional;

/** Each app's limits: the server's defaults, or the app's own where an operator set them. */
public interface ManageLimitsUseCase {

    /** The limits that hold for the app now, read from memory: what a run's path asks. */
    AppLimits effective(String appId);

    /** The app's own limits, if an operator set them. */
    Optional<AppLimits> own(String appId);

    /** What every app without limits of its own has. */
    AppLimits defaults();

    /**
     * Sets the app's own limits, in force at once here and within a sync interval on the other instances.
     *
     * @throws dev.hexaflow.application.common.ApiException NOT_FOUND when there is no such app
     */
    AppLimits set(String appId, AppLimits limits);

    /** Forgets the app's own limits: the defaults hold again. */
    void reset(String appId);

    /**
     * The app's limits as the operator sees them.
     *
     * @throws dev.hexaflow.application.common.ApiException NOT_FOUND when there is no such app
     */
    LimitsView view(String appId);

    /** The limits in force for an app, and whether they are its own (else the server's defaults). */
    record LimitsView(String appId, boolean own, AppLimits limits) {
    }
}
