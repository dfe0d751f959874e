package dev.hexaflow.domain.workflow;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ErrorHandlingTest {

    private static ErrorHandling read(Map<String, Object> data) {
        return ErrorHandling.of(DataTree.of(data));
    }

    @Test
    void anAbsentEmptyOrNoneStrategyHandlesNoError() {
        assertThat(read(Map.of())).isEqualTo(ErrorHandling.NONE);
        assertThat(read(Map.of("error_strategy", ""))).isEqualTo(ErrorHandling.NONE);
        assertThat(read(Map.of("error_strategy", "none")).handlesErrors()).isFalse();
        assertThat(ErrorHandling.NONE.successHandle("true")).isEqualTo("true");
    }

    @Test
    void theFailBranchStrategySendsSuccessAndFailureDownTheirOwnBranches() {
        ErrorHandling failBranch = read(Map.of("error_strategy", "fail-branch"));

        assertThat(failBranch.strategy()).isEqualTo(ErrorStrategy.FAIL_BRANCH);
        assertThat(failBranch.successHandle("source")).isEqualTo("success-branch");
        assertThat(failBranch.failureHandle()).isEqualTo("fail-branch");
        assertThat(failBranch.failureOutputs("boom", "HTTPError"))
                .containsExactly(Map.entry("error_message", "boom"), Map.entry("error_type", "HTTPError"));
    }

    @Test
    void theDefaultValueStrategyGoesOnDownTheUsualEdgesWithItsDefaultsAndTheError() {
        ErrorHandling defaults = read(Map.of("error_strategy", "default-value", "default_value", List.of(
                Map.of("key", "text", "type", "string", "value", "sorry"),
                Map.of("key", "", "type", "string", "value", "no key, left out"))));

        assertThat(defaults.successHandle("source")).isEqualTo("source");
        assertThat(defaults.failureHandle()).isEqualTo(Edge.DEFAULT_HANDLE);
        assertThat(defaults.failureOutputs("boom", "CodeNodeError")).containsExactly(Map.entry("text", "sorry"),
                Map.entry("error_message", "boom"), Map.entry("error_type", "CodeNodeError"));
    }

    @Test
    void aStrategyDifyDoesNotKnowIsRefusedNamingTheField() {
        assertThatThrownBy(() -> read(Map.of("error_strategy", "fail-brnch")))
                .isInstanceOf(InvalidNodeDataException.class)
                .hasMessage("error_strategy 'fail-brnch' is not an error strategy "
                        + "(fail-branch, default-value or none)");
    }
}
