package dev.hexaflow.adapters.nodes.tool.mcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hexaflow.application.workflow.port.out.ToolRunner.ToolException;
import dev.hexaflow.domain.tool.McpServer;
import dev.hexaflow.domain.tool.McpToolAddress;
import dev.hexaflow.domain.tool.ToolMessage;
import io.modelcontextprotocol.spec.McpSchema;
import java.net.URI;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** How an MCP tool's answer becomes the tool node's messages, and the most text one answer may bring. */
class McpToolResultsTest {

    static final McpToolAddress ADDRESS = new McpToolAddress(new McpServer("calc",
            new McpServer.StreamableHttp(URI.create("http://127.0.0.1:1/mcp"), Map.of())), "big");

    @Test
    void anAnswerOfMoreTextThanARunTakesFailsTheCallNamingTheCap() {
        String part = "x".repeat((int) (McpToolResults.MAX_TEXT_CHARS / 2));
        McpSchema.CallToolResult tooMuch = McpSchema.CallToolResult.builder().addTextContent(part)
                .addTextContent(part).addTextContent("x").build();

        assertThatThrownBy(() -> McpToolResults.messages(ADDRESS, tooMuch)).isInstanceOf(ToolException.class)
                .hasMessageContaining("more than the " + McpToolResults.MAX_TEXT_CHARS);
    }

    @Test
    void anAnswerAtTheCapIsTakenWhole() {
        String part = "x".repeat((int) (McpToolResults.MAX_TEXT_CHARS / 2));
        McpSchema.CallToolResult atCap = McpSchema.CallToolResult.builder().addTextContent(part)
                .addTextContent(part).build();

        assertThat(McpToolResults.messages(ADDRESS, atCap)).hasSize(2).allMatch(ToolMessage.Text.class::isInstance);
    }
}
