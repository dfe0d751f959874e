package dev.hexaflow.adapters.metrics;

import dev.hexaflow.application.webhooks.port.out.DeliveryMonitor;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;

/** Counts webhook delivery attempts by outcome: delivered, failed_attempt (due again), given_up. */
public final class MicrometerDeliveryMonitor implements DeliveryMonitor {

    private final Map<Outcome, Counter> attempts = new EnumMap<>(Outcome.class);

    public MicrometerDeliveryMonitor(MeterRegistry registry) {
        for (Outcome outcome : Outcome.values()) {
            attempts.put(outcome, Counter.builder("hexaflow.webhook.deliveries")
                    .tag("outcome", outcome.name().toLowerCase(Locale.ROOT))
                    .description("Webhook delivery attempts, by outcome").register(registry));
        }
    }

    @Override
    public void attempted(Outcome outcome) {
        attempts.get(outcome).increment();
    }
}
