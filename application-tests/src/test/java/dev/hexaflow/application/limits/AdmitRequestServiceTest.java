package dev.hexaflow.application.limits;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hexaflow.adapters.persistence.memory.InMemoryAppLimitsRepository;
import dev.hexaflow.adapters.persistence.memory.InMemoryAppRepository;
import dev.hexaflow.adapters.persistence.memory.InMemoryLimitCounters;
import dev.hexaflow.application.MovableClock;
import dev.hexaflow.application.common.ApiError;
import dev.hexaflow.application.common.ApiException;
import dev.hexaflow.application.limits.port.in.AdmitRequestUseCase.Admission;
import dev.hexaflow.application.limits.service.ManageLimitsService;
import dev.hexaflow.application.limits.service.AdmitRequestService;
import dev.hexaflow.application.limits.service.SharedCounts;
import dev.hexaflow.domain.limit.AppLimits;
import dev.hexaflow.domain.limit.RateLimit;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class AdmitRequestServiceTest {

    private final InMemoryAppRepository apps = new InMemoryAppRepository();
    private final ManageLimitsService limits = new ManageLimitsService(new InMemoryAppLimitsRepository(), apps,
            AppLimits.NONE);
    private final MovableClock clock = new MovableClock(Instant.parse("2026-11-28T12:00:00Z"));
    private final AtomicInteger instances = new AtomicInteger(1);
    private final AdmitRequestService rates = new AdmitRequestService(limits, Optional.of(new RateLimit(6, 1)),
            instances::get, clock);

    @Test
    void aKeyIsAdmittedForItsBurstThenRefusedWithTheWaitAndAMessageNamingTheLimit() {
        limit("app-1", new RateLimit(60, 3), null);

        for (int i = 0; i < 3; i++) {
            assertThat(rates.byKey("app-1", "k1").admitted()).isTrue();
        }
        Admission refused = rates.byKey("app-1", "k1");

        assertThat(refused.admitted()).isFalse();
        assertThat(refused.retryAfterMillis()).isEqualTo(1_000);
        assertThat(refused.retryAfterSeconds()).isEqualTo(1);
        assertThat(refused.message()).isEqualTo("Rate limit of 60 requests a minute (3 at once) for this key "
                + "reached; try again in 1 s.");
        assertThatThrownBy(refused::orRefuse).isInstanceOfSatisfying(ApiException.class, e -> {
            assertThat(e.error()).isEqualTo(ApiError.TOO_MANY_REQUESTS);
            assertThat(e.retryAfterSeconds()).isEqualTo(1);
        });
        assertThat(rates.byKey("app-1", "k2").admitted()).as("another key has its own bucket").isTrue();
        clock.advance(Duration.ofSeconds(1));
        assertThat(rates.byKey("app-1", "k1").admitted()).as("a token a second").isTrue();
    }

    @Test
    void eachEndUserHasABucketOfItsOwnAndAnAppWithoutRatesAdmitsAll() {
        limit("app-1", null, new RateLimit(10, 1));
        apps.add(ManageLimitsServiceTest.app("app-2"));

        assertThat(rates.byEndUser("app-1", "ann").admitted()).isTrue();
        Admission refused = rates.byEndUser("app-1", "ann");
        assertThat(refused.retryAfterSeconds()).as("10 a minute: 6 s a token").isEqualTo(6);
        assertThat(refused.message()).contains("for this end user");
        assertThat(rates.byEndUser("app-1", "bob").admitted()).isTrue();
        for (int i = 0; i < 100; i++) {
            assertThat(rates.byKey("app-1", "k1").admitted()).isTrue();
            assertThat(rates.byEndUser("app-2", "ann").admitted()).isTrue();
        }
    }

    @Test
    void aCampusKeyHasTheServersRate() {
        assertThat(rates.byCampusKey("abc").admitted()).isTrue();
        assertThat(rates.byCampusKey("abc").retryAfterSeconds()).as("6 a minute").isEqualTo(10);
        assertThat(rates.byCampusKey("def").admitted()).isTrue();
    }

    @Test
    void aChangedLimitHoldsAtOnce() {
        limit("app-1", new RateLimit(60, 1), null);
        assertThat(rates.byKey("app-1", "k1").admitted()).isTrue();
        assertThat(rates.byKey("app-1", "k1").admitted()).isFalse();

        limits.set("app-1", new AppLimits(Optional.of(new RateLimit(6_000, 1)), Optional.empty(), 0, 0, 0,
                List.of(), AppLimits.OnCrossing.STOP, ZoneOffset.UTC));
        clock.advance(Duration.ofMillis(10));

        assertThat(rates.byKey("app-1", "k1").retryAfterMillis()).as("100 a second: a token in 10 ms")
                .isBetween(1L, 10L);
        clock.advance(Duration.ofMillis(10));
        assertThat(rates.byKey("app-1", "k1").admitted()).isTrue();
    }

    @Test
    void twoInstancesEachHoldHalfTheRateAndTheBurst() {
        limit("app-1", new RateLimit(60, 4), null);
        instances.set(2);

        assertThat(rates.byKey("app-1", "k1").admitted()).isTrue();
        assertThat(rates.byKey("app-1", "k1").admitted()).isTrue();
        Admission refused = rates.byKey("app-1", "k1");

        assertThat(refused.admitted()).as("half the burst").isFalse();
        assertThat(refused.retryAfterSeconds()).as("half the rate: 30 a minute").isEqualTo(2);
    }

    @Test
    void theInstancesAreTheLiveOnesTheSharedCountsKnow() {
        InMemoryLimitCounters store = new InMemoryLimitCounters(clock::millis);
        SharedCounts here = new SharedCounts();
        SharedCounts there = new SharedCounts();
        var count = AdmitRequestService.instancesOf(here);
        AdmitRequestService.instancesOf(there);
        assertThat(count.getAsInt()).isEqualTo(1);

        there.exchangeWith(store, "b", 10_000);
        here.exchangeWith(store, "a", 10_000);

        assertThat(count.getAsInt()).isEqualTo(2);
    }

    @Test
    void pastTheBoundFullBucketsAreForgottenFirst() {
        AdmitRequestService bounded = new AdmitRequestService(limits, Optional.of(new RateLimit(60, 2)), () -> 1,
                clock, 3);
        bounded.byCampusKey("busy");
        bounded.byCampusKey("busy");
        assertThat(bounded.byCampusKey("busy").admitted()).isFalse();
        clock.advance(Duration.ofMillis(100));
        bounded.byCampusKey("a");
        bounded.byCampusKey("b");
        clock.advance(Duration.ofSeconds(1));

        bounded.byCampusKey("c");

        assertThat(bounded.buckets()).as("a and b were full again, and forgotten").isEqualTo(2);
        assertThat(bounded.byCampusKey("busy").admitted()).isTrue();
        assertThat(bounded.byCampusKey("busy").admitted()).as("busy was kept: it had not refilled").isFalse();
    }

    private void limit(String appId, RateLimit perKey, RateLimit perEndUser) {
        apps.add(ManageLimitsServiceTest.app(appId));
        limits.set(appId, new AppLimits(Optional.ofNullable(perKey), Optional.ofNullable(perEndUser), 0, 0, 0,
                List.of(), AppLimits.OnCrossing.STOP, ZoneOffset.UTC));
    }
}
