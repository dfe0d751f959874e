package dev.hexaflow.application.limits.service;

import dev.hexaflow.application.apps.port.out.AppRepository;
import dev.hexaflow.application.common.ApiError;
import dev.hexaflow.application.common.ApiException;
import dev.hexaflow.application.limits.port.in.ManageLimitsUseCase;
import dev.hexaflow.application.limits.port.out.AppLimitsRepository;
import dev.hexaflow.domain.limit.AppLimits;
import java.util.Map;
import java.util.Optional;

/**
 * The apps' limits over their repository, held in memory for the run path: read whole at start, kept here on
 * each change, and read again by {@link #reload} (the limits' sync) so that the other instances' changes arrive.
 */
public final class ManageLimitsService implements ManageLimitsUseCase {

    private final AppLimitsRepository repository;
    private final AppRepository apps;
    private final AppLimits defaults;
    /** Empty until {@link #reload} first reads the store, which is ready only once migrated. */
    private volatile Map<String, AppLimits> own = Map.of();

    public ManageLimitsService(AppLimitsRepository repository, AppRepository apps, AppLimits defaults) {
        this.repository = repository;
        this.apps = apps;
        this.defaults = defaults;
    }

    @Override
    public AppLimits effective(String appId) {
        return own.getOrDefault(appId, defaults);
    }

    @Override
    public Optional<AppLimits> own(String appId) {
        return Optional.ofNullable(own.get(appId));
    }

    @Override
    public AppLimits defaults() {
        return defaults;
    }

    @Override
    public synchronized AppLimits set(String appId, AppLimits limits) {
        requireApp(appId);
        repository.save(appId, limits);
        reload();
        return limits;
    }

    @Override
    public synchronized void reset(String appId) {
        requireApp(appId);
        repository.remove(appId);
        reload();
    }

    @Override
    public LimitsView view(String appId) {
        requireApp(appId);
        return new LimitsView(appId, own.containsKey(appId), effective(appId));
    }

    /** Reads every app's own limits again: those another instance set arrive this way. */
    public void reload() {
        own = Map.copyOf(repository.all());
    }

    private void requireApp(String appId) {
        if (apps.find(appId).isEmpty()) {
            throw new ApiException(ApiError.NOT_FOUND, "App not found.");
        }
    }
}
