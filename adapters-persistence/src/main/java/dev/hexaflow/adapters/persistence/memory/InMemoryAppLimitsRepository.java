package dev.hexaflow.adapters.persistence.memory;

import dev.hexaflow.application.limits.port.out.AppLimitsRepository;
import dev.hexaflow.domain.limit.AppLimits;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/** The apps' own limits in memory. */
public final class InMemoryAppLimitsRepository implements AppLimitsRepository {

    private final Map<String, AppLimits> limits = new ConcurrentHashMap<>();

    @Override
    public Optional<AppLimits> find(String appId) {
        return Optional.ofNullable(limits.get(appId));
    }

    @Override
    public Map<String, AppLimits> all() {
        return new TreeMap<>(limits);
    }

    @Override
    public void save(String appId, AppLimits limits) {
        this.limits.put(appId, limits);
    }

    @Override
    public void remove(String appId) {
        limits.remove(appId);
    }
}
