package dev.hexaflow.domain.limit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class TokenBucketTest {

    @Test
    void aFullBucketAdmitsExactlyTheBurstThenTellsTheWaitForTheNextToken() {
        TokenBucket bucket = new TokenBucket(new RateLimit(60, 3), 1, 1_000);

        assertThat(bucket.take(1_000)).isZero();
        assertThat(bucket.take(1_000)).isZero();
        assertThat(bucket.take(1_000)).isZero();
        assertThat(bucket.take(1_000)).isEqualTo(1_000);
        assertThat(bucket.take(1_400)).isEqualTo(600);
    }

    @Test
    void itRefillsAtTheRateAndNeverPastTheBurst() {
        TokenBucket bucket = new TokenBucket(new RateLimit(600, 2), 1, 0);
        bucket.take(0);
        bucket.take(0);

        assertThat(bucket.take(99)).isEqualTo(1);
        assertThat(bucket.take(100)).isZero();
        assertThat(bucket.fullAt(100)).isFalse();
        assertThat(bucket.fullAt(300)).isTrue();
        for (int i = 0; i < 2; i++) {
            assertThat(bucket.take(60_000)).isZero();
        }
        assertThat(bucket.take(60_000)).isEqualTo(100);
    }

    @Test
    void aShareHoldsItsPartOfTheRateAndTheBurstAndAtLeastOneToken() {
        TokenBucket half = new TokenBucket(new RateLimit(60, 4), 2, 0);
        assertThat(half.capacity()).isEqualTo(2.0);
        half.take(0);
        half.take(0);
        assertThat(half.take(0)).as("30 a minute: 2 s a token").isEqualTo(2_000);

        TokenBucket third = new TokenBucket(new RateLimit(60, 1), 3, 0);
        assertThat(third.capacity()).isEqualTo(1.0);
        assertThat(third.take(0)).isZero();
        assertThat(third.take(0)).isEqualTo(3_000);
    }

    @Test
    void resizingKeepsTheTokensHeldUpToTheNewCapacity() {
        TokenBucket bucket = new TokenBucket(new RateLimit(60, 10), 1, 0);
        bucket.resize(new RateLimit(60, 10), 2, 0);
        assertThat(bucket.capacity()).isEqualTo(5.0);
        for (int i = 0; i < 5; i++) {
            assertThat(bucket.take(0)).isZero();
        }
        assertThat(bucket.take(0)).isPositive();
        bucket.resize(new RateLimit(6_000, 10), 1, 0);
        assertThat(bucket.take(10)).isZero();
    }

    @Test
    void noInstanceIsNoShare() {
        assertThatThrownBy(() -> new TokenBucket(new RateLimit(60, 1), 0, 0))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
