package dev.hexaflow.adapters.http.server;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The credentials some paths hold never reach a log line: a webhook's code, a form's token, an MCP server's code. */
class LoggedPathsTest {

    @Test
    void anMcpServersCodeIsLeftOutWhereverThePathGoesOn() {
        String code = "j5wzq664apcgpaf6xp6eawkp79cdt358";
        assertThat(LoggedPaths.of("/mcp/server/" + code + "/mcp")).isEqualTo("/mcp/server/…/mcp");
        assertThat(LoggedPaths.of("/mcp/server/" + code)).isEqualTo("/mcp/server/…");
        assertThat(LoggedPaths.of("/mcp/server/" + code + "/other/path")).isEqualTo("/mcp/server/…/other/path");
        assertThat(LoggedPaths.of("/triggers/webhook/" + code)).isEqualTo("/triggers/webhook/…");
        assertThat(LoggedPaths.of("/v1/workflows/run")).isEqualTo("/v1/workflows/run");
    }
}
