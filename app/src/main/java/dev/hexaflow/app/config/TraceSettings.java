package dev.hexaflow.app.config;

import dev.hexaflow.app.cli.UsageException;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Whether the server sends OpenTelemetry traces, and the standard {@code OTEL_*} settings it hands the SDK's
 * autoconfiguration (endpoint, protocol, headers, sampler, service name, batching). Off unless an exporter endpoint
 * is set ({@code OTEL_EXPORTER_OTLP_ENDPOINT} or {@code OTEL_EXPORTER_OTLP_TRACES_ENDPOINT}) or
 * {@code OTEL_TRACES_EXPORTER=otlp} asks for one (the SDK's default endpoint then, a collector on localhost);
 * {@code OTEL_SDK_DISABLED=true} and {@code OTEL_TRACES_EXPORTER=none} keep it off whatever else is set.
 */
public record TraceSettings(boolean on, Map<String, String> otel) {

    public static final TraceSettings OFF = new TraceSettings(false, Map.of());

    /** The service name spans are sent under when the settings name none. */
    public static final String DEFAULT_SERVICE_NAME = "hexaflow";

    public TraceSettings {
        otel = Map.copyOf(otel);
    }

    public static TraceSettings fromEnvironment(Map<String, String> env) {
        Map<String, String> otel = new TreeMap<>();
        env.forEach((name, value) -> {
            if (name.startsWith("OTEL_") && value != null && !value.isBlank()) {
                otel.put(name, value.strip());
            }
        });
        String exporter = otel.getOrDefault("OTEL_TRACES_EXPORTER", "").toLowerCase(Locale.ROOT);
        if (!exporter.isEmpty() && !exporter.equals("otlp") && !exporter.equals("none")) {
            throw new UsageException("OTEL_TRACES_EXPORTER takes otlp or none, was '"
                    + otel.get("OTEL_TRACES_EXPORTER") + "'");
        }
        String disabled = otel.getOrDefault("OTEL_SDK_DISABLED", "false").toLowerCase(Locale.ROOT);
        if (!disabled.equals("true") && !disabled.equals("false")) {
            throw new UsageException("OTEL_SDK_DISABLED takes true or false, was '" + otel.get("OTEL_SDK_DISABLED")
                    + "'");
        }
        for (String protocol : java.util.List.of("OTEL_EXPORTER_OTLP_PROTOCOL", "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL")) {
            if (otel.containsKey(protocol) && !otel.get(protocol).equals("http/protobuf")) {
                throw new UsageException(protocol + " takes http/protobuf (Hexaflow sends OTLP over HTTP), was '"
                        + otel.get(protocol) + "'");
            }
        }
        if (!otel.containsKey("OTEL_SERVICE_NAME")
                && !otel.getOrDefault("OTEL_RESOURCE_ATTRIBUTES", "").contains("service.name=")) {
            otel.put("OTEL_SERVICE_NAME", DEFAULT_SERVICE_NAME);
        }
        boolean endpoint = otel.containsKey("OTEL_EXPORTER_OTLP_ENDPOINT")
                || otel.containsKey("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT");
        boolean on = !disabled.equals("true") && !exporter.equals("none") && (endpoint || exporter.equals("otlp"));
        return on ? new TraceSettings(true, otel) : OFF;
    }

    /** The settings' names only: their values may hold an exporter's credentials (OTEL_EXPORTER_OTLP_HEADERS). */
    @Override
    public String toString() {
        return "TraceSettings[on=" + on + ", settings=" + otel.keySet() + "]";
    }
}
