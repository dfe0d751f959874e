package dev.hexaflow.domain.workflow;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RetryPolicyTest {

    private static RetryPolicy read(Map<String, Object> config) {
        return RetryPolicy.of(DataTree.of(Map.of("retry_config", config)));
    }

    @Test
    void anEnabledConfigRetriesItsCountAfterItsIntervalInMilliseconds() {
        RetryPolicy policy = read(Map.of("retry_enabled", true, "max_retries", 3, "retry_interval", 250));

        assertThat(policy.retries()).isEqualTo(3);
        assertThat(policy.interval()).isEqualTo(Duration.ofMillis(250));
    }

    @Test
    void aDisabledOrAbsentConfigRetriesNothing() {
        assertThat(read(Map.of("retry_enabled", false, "max_retries", 3)).retries()).isZero();
        assertThat(RetryPolicy.of(DataTree.of(Map.of()))).isEqualTo(RetryPolicy.NONE);
    }

    @Test
    void theOlderEditorsEnabledKeyCountsAsRetryEnabled() {
        assertThat(read(Map.of("enabled", true, "max_retries", 1)).retries()).isEqualTo(1);
        assertThat(read(Map.of("enabled", false, "max_retries", 1, "retry_interval", 1000)).retries()).isZero();
    }

    @Test
    void numbersWrittenAsTextAreReadAndNegativesMeanNone() {
        RetryPolicy policy = read(Map.of("retry_enabled", "true", "max_retries", "2", "retry_interval", -5));

        assertThat(policy.retries()).isEqualTo(2);
        assertThat(policy.interval()).isEqualTo(Duration.ZERO);
        assertThat(read(Map.of("retry_enabled", true, "max_retries", -1)).retries()).isZero();
    }

    @Test
    void aFieldOfTheWrongTypeIsRefusedNamingItWithinRetryConfig() {
        assertThatThrownBy(() -> read(Map.of("retry_enabled", true, "max_retries", "x")))
                .isInstanceOf(InvalidNodeDataException.class)
                .hasMessage("retry_config.max_retries must be a number, was 'x'");
        assertThatThrownBy(() -> read(Map.of("retry_enabled", "sometimes")))
                .hasMessage("retry_config.retry_enabled must be true or false");
        assertThatThrownBy(() -> RetryPolicy.of(DataTree.of(Map.of("retry_config", "often"))))
                .hasMessage("retry_config must be an object");
    }
}
