package dev.hexaflow.app.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hexaflow.app.cli.UsageException;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** When traces are on, from the standard OTEL_* settings of the environment the configuration reads. */
class TraceSettingsTest {

    @Test
    void tracesAreOffWithNoOtelSettingAndWithAnythingButAnEndpointOrOtlpAsked() {
        assertThat(TraceSettings.fromEnvironment(Map.of()).on()).isFalse();
        assertThat(TraceSettings.fromEnvironment(Map.of("OTEL_SERVICE_NAME", "api",
                "OTEL_TRACES_SAMPLER", "always_on")).on()).isFalse();
        assertThat(Configuration.fromEnvironment(Map.of()).traces()).isEqualTo(TraceSettings.OFF);
    }

    @Test
    void anEndpointATracesEndpointOrOtlpAskedTurnsThemOnWithHexaflowAsTheServiceNameByDefault() {
        TraceSettings endpoint = TraceSettings.fromEnvironment(Map.of("OTEL_EXPORTER_OTLP_ENDPOINT",
                "http://collector:4318", "HEXAFLOW_PORT", "9000"));
        assertThat(endpoint.on()).isTrue();
        assertThat(endpoint.otel()).containsOnly(Map.entry("OTEL_EXPORTER_OTLP_ENDPOINT", "http://collector:4318"),
                Map.entry("OTEL_SERVICE_NAME", "hexaflow"));
        assertThat(TraceSettings.fromEnvironment(Map.of("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT",
                "http://collector:4318/v1/traces")).on()).isTrue();
        assertThat(TraceSettings.fromEnvironment(Map.of("OTEL_TRACES_EXPORTER", "otlp")).on()).isTrue();
        assertThat(TraceSettings.fromEnvironment(Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", "http://c:4318",
                "OTEL_SERVICE_NAME", "flows")).otel()).containsEntry("OTEL_SERVICE_NAME", "flows");
        assertThat(TraceSettings.fromEnvironment(Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", "http://c:4318",
                "OTEL_RESOURCE_ATTRIBUTES", "service.name=flows")).otel()).doesNotContainKey("OTEL_SERVICE_NAME");
    }

    @Test
    void theSdkDisabledOrTheExporterNoneKeepsThemOffWhateverElseIsSet() {
        assertThat(TraceSettings.fromEnvironment(Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", "http://c:4318",
                "OTEL_SDK_DISABLED", "true"))).isEqualTo(TraceSettings.OFF);
        assertThat(TraceSettings.fromEnvironment(Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", "http://c:4318",
                "OTEL_TRACES_EXPORTER", "none")).on()).isFalse();
    }

    @Test
    void anExporterOrProtocolTheServerCannotSendWithAndAMisspelledSwitchStopTheStart() {
        assertThatThrownBy(() -> TraceSettings.fromEnvironment(Map.of("OTEL_TRACES_EXPORTER", "zipkin")))
                .isInstanceOf(UsageException.class).hasMessageContaining("OTEL_TRACES_EXPORTER");
        assertThatThrownBy(() -> TraceSettings.fromEnvironment(Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", "http://c:4317",
                "OTEL_EXPORTER_OTLP_PROTOCOL", "grpc"))).isInstanceOf(UsageException.class)
                .hasMessageContaining("http/protobuf");
        assertThatThrownBy(() -> TraceSettings.fromEnvironment(Map.of("OTEL_SDK_DISABLED", "yes")))
                .isInstanceOf(UsageException.class).hasMessageContaining("OTEL_SDK_DISABLED");
    }

    @Test
    void theSettingsAreShownByNameOnlySinceTheirHeadersMayHoldACollectorsCredentials() {
        TraceSettings settings = TraceSettings.fromEnvironment(Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", "http://c:4318",
                "OTEL_EXPORTER_OTLP_HEADERS", "authorization=Bearer collector-secret-123"));

        assertThat(settings.toString()).contains("OTEL_EXPORTER_OTLP_HEADERS").doesNotContain("collector-secret");
    }
}
