package dev.hexaflow.domain.id;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.Set;
import java.util.UUID;
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
}
