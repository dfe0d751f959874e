package dev.hexaflow.domain.id;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;

class TimeOrderedIdsTest {

    @Test
    void idsAreVersionSevenUuidsThatCarryTheirMillisecondFirst() {
        UUID id = TimeOrderedIds.next(0x0123_4567_89ABL);

        assertThat(id.version()).isEqualTo(7);
        assertThat(id.variant()).isEqualTo(2);
        assertThat(id.toString()).startsWith("01234567-89ab-7");
    }

    @Test
    void laterIdsSortAfterEarlierOnesAndNoTwoAreAlike() {
        Set<String> seen = new HashSet<>();
        String previous = "";
        for (long millis = 1_700_000_000_000L; millis < 1_700_000_000_000L + 2_000; millis++) {
            String id = TimeOrderedIds.next(millis).toString();
            assertThat(id).isGreaterThan(previous);
            assertThat(seen.add(id)).isTrue();
            previous = id;
        }
        String now = new TimeOrderedIds().get();
        assertThat(UUID.fromString(now).toString()).isEqualTo(now);
    }

    @Test
    void idsMadeOnManyThreadsAtOnceAreAllDifferentAndAllVersionSeven() throws InterruptedException {
        Set<String> seen = ConcurrentHashMap.newKeySet();
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < 16; t++) {
            Thread thread = new Thread(() -> {
                TimeOrderedIds ids = new TimeOrderedIds();
                for (int i = 0; i < 5_000; i++) {
                    seen.add(ids.get());
                }
            });
            thread.start();
            threads.add(thread);
        }
        for (Thread thread : threads) {
            thread.join();
        }
        assertThat(seen).hasSize(16 * 5_000);
        assertThat(seen).allSatisfy(id -> {
            assertThat(UUID.fromString(id).version()).isEqualTo(7);
            assertThat(UUID.fromString(id).variant()).isEqualTo(2);
        });
    }

    @Test
    void theRandomBitsOfIdsInOneMillisecondShareNoPattern() {
        Set<Long> lows = new HashSet<>();
        Set<Long> randomHighs = new HashSet<>();
        for (int i = 0; i < 1_000; i++) {
            UUID id = TimeOrderedIds.next(1_700_000_000_000L);
            lows.add(id.getLeastSignificantBits());
            randomHighs.add(id.getMostSignificantBits() & 0xFFFL);
        }
        assertThat(lows).hasSize(1_000);
        // 12 random bits in the high half: a thousand draws of 4096 values give well over 800 distinct ones
        assertThat(randomHighs).hasSizeGreaterThan(800);
    }
}
