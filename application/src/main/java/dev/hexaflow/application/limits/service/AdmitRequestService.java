package dev.hexaflow.application.limits.service;

import dev.hexaflow.application.limits.port.in.AdmitRequestUseCase;
import dev.hexaflow.application.limits.port.in.ManageLimitsUseCase;
import dev.hexaflow.domain.limit.RateLimit;
import dev.hexaflow.domain.limit.TokenBucket;
import java.time.Clock;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.IntSupplier;

/**
 * Request rates in memory, one token bucket per key ({@code key|<appId>|<keyId>}), end user ({@code
 * user|<appId>|<user>}) and campus key ({@code campus|<hash>}). Instances that share a store share each rate by
 * leased shares: each holds {@code 1/N} of the rate and of the burst (at least one token), N the live instances, so
 * that together they admit at most the rate and a burst of {@code max(burst, N)}, with no store round trip.
 */
public final class AdmitRequestService implements AdmitRequestUseCase {

    /** The gauge each live instance holds at 1: the others' sum, plus one, is N. */
    public static final String INSTANCE_GAUGE = "live|instance";
    /** Buckets kept at most: past it, the full ones (which lose nothing) are forgotten first. */
    public static final int MOST_BUCKETS = 50_000;

    private final ManageLimitsUseCase limits;
    private final Optional<RateLimit> campus;
    private final IntSupplier instances;
    private final Clock clock;
    private final int mostBuckets;
    private final Map<String, TokenBucket> buckets = new ConcurrentHashMap<>();

    /**
     * @param campus    the rate of each campus key, the server's setting; empty for none
     * @param instances how many instances share the store now (1 alone)
     */
    public AdmitRequestService(ManageLimitsUseCase limits, Optional<RateLimit> campus, IntSupplier instances,
            Clock clock) {
        this(limits, campus, instances, clock, MOST_BUCKETS);
    }

    public AdmitRequestService(ManageLimitsUseCase limits, Optional<RateLimit> campus, IntSupplier instances,
            Clock clock, int mostBuckets) {
        this.limits = limits;
        this.campus = campus;
        this.instances = instances;
        this.clock = clock;
        this.mostBuckets = mostBuckets;
    }

    /**
     * The live instances as {@code counts} knows them from its last exchange: this one raises its gauge {@link
     * #INSTANCE_GAUGE} to 1 (lowered again as it stops), and each other live one's counts too.
     */
    public static IntSupplier instancesOf(SharedCounts counts) {
        counts.gauge(INSTANCE_GAUGE).set(1);
        return () -> 1 + (int) Math.max(0, counts.othersGauge(INSTANCE_GAUGE));
    }

    @Override
    public Admission byKey(String appId, String keyId) {
        return admit(limits.effective(appId).perKey(), "key|" + appId + "|" + keyId, "this key");
    }

    @Override
    public Admission byEndUser(String appId, String user) {
        return admit(limits.effective(appId).perEndUser(), "user|" + appId + "|" + user, "this end user");
    }

    @Override
    public Admission byCampusKey(String keyHash) {
        return admit(campus, "campus|" + keyHash, "this campus key");
    }

    /** Buckets held now (for the bound's test). */
    public int buckets() {
        return buckets.size();
    }

    private Admission admit(Optional<RateLimit> rate, String key, String whose) {
        if (rate.isEmpty()) {
            return Admission.ADMITTED;
        }
        RateLimit limit = rate.get();
        int shares = Math.max(1, instances.getAsInt());
        long now = clock.millis();
        TokenBucket bucket = buckets.get(key);
        if (bucket == null) {
            keepBounded(now);
            bucket = buckets.computeIfAbsent(key, k -> new TokenBucket(limit, shares, now));
        }
        long wait;
        synchronized (bucket) {
            bucket.resize(limit, shares, now);
            wait = bucket.take(now);
        }
        if (wait == 0) {
            return Admission.ADMITTED;
        }
        long seconds = Math.max(1, (wait + 999) / 1000);
        return new Admission(wait, "Rate limit of " + limit.perMinute() + " requests a minute (" + limit.burst()
                + " at once) for " + whose + " reached; try again in " + seconds + " s.");
    }

    /** Past the bound, full buckets go first; if that is not enough, all (memory is bounded before rates are exact). */
    private void keepBounded(long now) {
        if (buckets.size() < mostBuckets) {
            return;
        }
        buckets.values().removeIf(bucket -> {
            synchronized (bucket) {
                return bucket.fullAt(now);
            }
        });
        if (buckets.size() >= mostBuckets) {
            buckets.clear();
        }
    }
}
