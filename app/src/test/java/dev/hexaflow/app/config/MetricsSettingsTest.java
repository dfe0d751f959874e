package dev.hexaflow.app.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hexaflow.app.cli.UsageException;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** HEXAFLOW_METRICS and HEXAFLOW_METRICS_TOKEN: off unless asked for, and a typo stops the start. */
class MetricsSettingsTest {

    private static final String TOKEN = "a-metrics-token-of-24-ch";

    @Test
    void nothingSetLeavesMetricsOff() {
        assertThat(MetricsSettings.fromEnvironment(Map.of())).isEqualTo(MetricsSettings.OFF);
        assertThat(Configuration.fromEnvironment(Map.of()).metrics().on()).isFalse();
    }

    @Test
    void onTurnsThemOnWithoutAToken() {
        MetricsSettings settings = MetricsSettings.fromEnvironment(Map.of("HEXAFLOW_METRICS", "on"));

        assertThat(settings.on()).isTrue();
        assertThat(settings.token()).isEmpty();
    }

    @Test
    void aTokenAloneTurnsThemOnBehindIt() {
        MetricsSettings settings = MetricsSettings.fromEnvironment(Map.of("HEXAFLOW_METRICS_TOKEN", TOKEN));

        assertThat(settings).isEqualTo(new MetricsSettings(true, Optional.of(TOKEN)));
        assertThat(Configuration.fromEnvironment(Map.of("HEXAFLOW_METRICS_TOKEN", TOKEN)).metrics())
                .isEqualTo(settings);
    }

    @Test
    void aWordOtherThanOnOrOffStopsTheStartNamingTheSetting() {
        assertThatThrownBy(() -> MetricsSettings.fromEnvironment(Map.of("HEXAFLOW_METRICS", "yes please")))
                .isInstanceOf(UsageException.class).hasMessageContaining("HEXAFLOW_METRICS takes on or off");
    }

    @Test
    void aShortTokenOrATokenWithMetricsOffStopsTheStart() {
        assertThatThrownBy(() -> MetricsSettings.fromEnvironment(Map.of("HEXAFLOW_METRICS_TOKEN", "short")))
                .isInstanceOf(UsageException.class).hasMessageContaining("at least 16 characters");
        assertThatThrownBy(() -> MetricsSettings.fromEnvironment(Map.of("HEXAFLOW_METRICS", "off",
                "HEXAFLOW_METRICS_TOKEN", TOKEN)))
                .isInstanceOf(UsageException.class).hasMessageContaining("HEXAFLOW_METRICS is off");
    }
}
