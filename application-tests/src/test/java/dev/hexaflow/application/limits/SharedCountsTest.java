package dev.hexaflow.application.limits;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hexaflow.adapters.persistence.memory.InMemoryLimitCounters;
import dev.hexaflow.application.limits.port.out.LimitCounters;
import dev.hexaflow.application.limits.service.SharedCounts;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** Two instances' views of the counts they share through one store. */
class SharedCountsTest {

    private static final long DAY_ENDS = 86_400_000L;

    private final AtomicLong time = new AtomicLong(1_000);
    private final InMemoryLimitCounters store = new InMemoryLimitCounters(time::get);
    private final SharedCounts first = new SharedCounts();
    private final SharedCounts second = new SharedCounts();

    @Test
    void aCounterIsSeenAtOnceHereAndByTheOtherInstanceAfterBothExchanged() {
        first.add("tokens|app|a|day|1970-01-01", 300, DAY_ENDS);
        assertThat(first.total("tokens|app|a|day|1970-01-01")).isEqualTo(300);
        assertThat(second.total("tokens|app|a|day|1970-01-01")).as("not yet exchanged").isZero();

        first.exchangeWith(store, "one", 10_000);
        second.add("tokens|app|a|day|1970-01-01", 50, DAY_ENDS);
        second.exchangeWith(store, "two", 10_000);

        assertThat(second.total("tokens|app|a|day|1970-01-01")).isEqualTo(350);
        first.exchangeWith(store, "one", 10_000);
        assertThat(first.total("tokens|app|a|day|1970-01-01")).isEqualTo(350);
    }

    @Test
    void gaugesAreTheOtherLiveInstancesAndAGoneInstanceStopsCounting() {
        first.gauge("active|app|a").set(3);
        first.exchangeWith(store, "one", 10_000);
        second.gauge("active|app|a").set(1);
        second.exchangeWith(store, "two", 10_000);
        assertThat(second.othersGauge("active|app|a")).isEqualTo(3);

        time.addAndGet(20_000); // the first stops exchanging for longer than an instance lives
        second.exchangeWith(store, "two", 10_000);

        assertThat(second.othersGauge("active|app|a")).isZero();
    }

    @Test
    void whatAFailedExchangeCarriedIsKeptForTheNext() {
        first.add("tokens|key|k|month|1970-01", 70, DAY_ENDS);
        LimitCounters down = new LimitCounters() {
            @Override
            public Totals exchange(String instance, Map<String, Delta> deltas, Map<String, Long> gauges,
                    long changedSince, long liveForMillis) {
                throw new IllegalStateException("the store is down");
            }

            @Override
            public int forgetEndedBefore(long before) {
                return 0;
            }
        };
        assertThatThrownBy(() -> first.exchangeWith(down, "one", 10_000)).isInstanceOf(IllegalStateException.class);
        assertThat(first.total("tokens|key|k|month|1970-01")).isEqualTo(70);

        first.exchangeWith(store, "one", 10_000);
        second.exchangeWith(store, "two", 10_000);

        assertThat(second.total("tokens|key|k|month|1970-01")).isEqualTo(70);
    }

    @Test
    void aCounterWhosePeriodEndedIsForgotten() {
        first.add("tokens|app|a|day|1970-01-01", 10, 5_000);
        first.exchangeWith(store, "one", 10_000);
        time.set(6_000);

        first.exchangeWith(store, "one", 10_000);

        assertThat(first.total("tokens|app|a|day|1970-01-01")).isZero();
        assertThat(store.forgetEndedBefore(6_000)).isEqualTo(1);
    }
}
