package dev.hexaflow.domain.tool;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class McpServerTest {

    private static final McpServer.Endpoint STDIO = new McpServer.Stdio(List.of("mcp-db"), Map.of());

    @Test
    void aNameIsLettersDigitsAndAFewMarksUpTo64() {
        assertThat(new McpServer("db_1.prod-eu", STDIO).name()).isEqualTo("db_1.prod-eu");
        for (String bad : List.of("", "-db", "a b", "a/b", "x".repeat(65))) {
            assertThatThrownBy(() -> new McpServer(bad, STDIO)).hasMessageStartingWith("name must be");
        }
    }

    @Test
    void aStreamableHttpServerNeedsAnHttpUrlAndOneLineHeaders() {
        assertThatThrownBy(() -> new McpServer.StreamableHttp(URI.create("ftp://a/mcp"), Map.of()))
                .hasMessageContaining("http or https");
        assertThatThrownBy(() -> new McpServer.StreamableHttp(URI.create("http://a/mcp"), Map.of("K", "a\r\nB: c")))
                .hasMessageContaining("one line");
        assertThatThrownBy(() -> new McpServer.StreamableHttp(URI.create("http://a/mcp"), Map.of("Bad Name", "v")))
                .hasMessageContaining("not a header name");
    }

    @Test
    void aStdioServerNeedsAProgramAndIsBoundedInSize() {
        assertThatThrownBy(() -> new McpServer.Stdio(List.of(), Map.of())).hasMessageContaining("program");
        assertThatThrownBy(() -> new McpServer.Stdio(List.of("p"), Map.of("A=B", "v")))
                .hasMessageContaining("not a variable name");
        assertThatThrownBy(() -> new McpServer.Stdio(List.of("p", "x".repeat(9000)), Map.of()))
                .hasMessageContaining("at most");
    }

    @Test
    void aBindingOfDifysOwnPluginIsTheSameAsItsShortNameAndBindsEveryProviderType() {
        ToolBinding binding = new ToolBinding("langgenius/time/time", "current_time",
                new ToolBinding.McpTool("clock", "now"));

        assertThat(binding.provider()).isEqualTo("time");
        assertThat(binding.binds(new ToolRef(ToolProviderType.BUILTIN, "time", "current_time"))).isTrue();
        assertThat(binding.binds(new ToolRef(ToolProviderType.PLUGIN, "langgenius/time/time", "current_time")))
                .isTrue();
        assertThat(binding.binds(new ToolRef(ToolProviderType.PLUGIN, "time", "timezone_conversion"))).isFalse();
    }
}
