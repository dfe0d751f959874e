package dev.hexaflow.app.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hexaflow.app.cli.UsageException;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The MCP servers' settings: their defaults, read from the environment, and each past its bounds refused. */
class McpServerSettingsTest {

    @Test
    void theDefaultsAndTheEnvironmentsValues() {
        assertThat(McpServerSettings.fromEnvironment(Map.of())).isEqualTo(McpServerSettings.DEFAULTS);
        assertThat(Configuration.fromEnvironment(Map.of("HEXAFLOW_MCP_SERVER_MAX_BODY_KB", "64",
                "HEXAFLOW_MCP_SERVER_MAX_CALLS", "3", "HEXAFLOW_MCP_SERVER_CALL_WAIT_SECONDS", "9")).mcpServer())
                .isEqualTo(new McpServerSettings(64 * 1024, 3, Duration.ofSeconds(9)));
    }

    @Test
    void valuesPastTheirBoundsAreRefusedNamingTheSetting() {
        assertThatThrownBy(() -> McpServerSettings.fromEnvironment(Map.of("HEXAFLOW_MCP_SERVER_MAX_BODY_KB",
                "16385"))).isInstanceOf(UsageException.class).hasMessageContaining("HEXAFLOW_MCP_SERVER_MAX_BODY_KB");
        assertThatThrownBy(() -> McpServerSettings.fromEnvironment(Map.of("HEXAFLOW_MCP_SERVER_MAX_CALLS", "0")))
                .hasMessageContaining("HEXAFLOW_MCP_SERVER_MAX_CALLS");
        assertThatThrownBy(() -> McpServerSettings.fromEnvironment(Map.of("HEXAFLOW_MCP_SERVER_CALL_WAIT_SECONDS",
                "0"))).hasMessageContaining("HEXAFLOW_MCP_SERVER_CALL_WAIT_SECONDS");
        assertThatThrownBy(() -> McpServerSettings.fromEnvironment(Map.of("HEXAFLOW_MCP_SERVER_MAX_CALLS", "many")))
                .hasMessageContaining("must be a whole number");
    }

    @Test
    void aChangeOfAnotherSettingKeepsThem() {
        McpServerSettings own = new McpServerSettings(2048, 2, Duration.ofSeconds(5));
        Configuration config = Configuration.fromEnvironment(Map.of()).withMcpServer(own);
        assertThat(config.withHost("0.0.0.0").withPort(9).withTriggers(TriggerSettings.DEFAULTS).mcpServer())
                .isEqualTo(own);
    }
}
