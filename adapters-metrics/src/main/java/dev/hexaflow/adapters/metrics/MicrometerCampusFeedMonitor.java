package dev.hexaflow.adapters.metrics;

import dev.hexaflow.application.campus.port.out.CampusFeedMonitor;
import dev.hexaflow.domain.campus.FeedMeta;
import dev.hexaflow.domain.campus.FeedMethod;
import dev.hexaflow.domain.campus.FeedStatus;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Counts campus feed answers by method (tutors, printers, holidays, or unknown for a path that names none) and
 * outcome (the feed status, such as ok, no_data, invalid_key): both come from fixed lists, so the series are few.
 */
public final class MicrometerCampusFeedMonitor implements CampusFeedMonitor {

    private final MeterRegistry registry;
    private final Map<String, Counter> calls = new ConcurrentHashMap<>();

    public MicrometerCampusFeedMonitor(MeterRegistry registry) {
        this.registry = registry;
    }

    @Override
    public void served(FeedMeta meta) {
        String method = meta.method().map(FeedMethod::resource).orElse("unknown");
        FeedStatus status = meta.status();
        calls.computeIfAbsent(method + ' ' + status.name(), key -> Counter.builder("hexaflow.campus.calls")
                .tag("method", method).tag("outcome", status.name().toLowerCase(Locale.ROOT))
                .description("Campus feed calls, by method and outcome").register(registry)).increment();
    }
}
