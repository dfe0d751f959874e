package dev.hexaflow.adapters.nodes.tool.mcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hexaflow.workflow.port.out.ToolRunner.ToolException;
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

    @Test
    void imageAudioAndBlobResourcePartsBecomeBlobsOfTheirDecodedBytes() {
        McpSchema.CallToolResult answer = McpSchema.CallToolResult.builder().content(java.util.List.of(
                new McpSchema.ImageContent(null, "iVBORw==", "image/png"),
                new McpSchema.AudioContent(null, "SUQz", "audio/mpeg"),
                new McpSchema.EmbeddedResource(null, new McpSchema.BlobResourceContents("file:///out/report.pdf",
                        "application/pdf", "JVBERg==")))).build();

        java.util.List<ToolMessage> messages = McpToolResults.messages(ADDRESS, answer);

        assertThat(messages).hasSize(3).allMatch(ToolMessage.Blob.class::isInstance);
        ToolMessage.Blob image = (ToolMessage.Blob) messages.get(0);
        assertThat(image.content()).containsExactly(0x89, 'P', 'N', 'G');
        assertThat(image.mimeType()).isEqualTo("image/png");
        assertThat(((ToolMessage.Blob) messages.get(1)).content()).containsExactly('I', 'D', '3');
        assertThat(((ToolMessage.Blob) messages.get(2)).filename()).isEqualTo("report.pdf");
    }

    @Test
    void anImageWhoseDataIsNotBase64FailsTheCall() {
        McpSchema.CallToolResult answer = McpSchema.CallToolResult.builder().content(java.util.List.of(
                new McpSchema.ImageContent(null, "not base64 at all!", "image/png"))).build();

        assertThatThrownBy(() -> McpToolResults.messages(ADDRESS, answer)).isInstanceOf(ToolException.class)
                .hasMessageContaining("not base64");
    }
}
