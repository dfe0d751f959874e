package dev.hexaflow.adapters.nodes.tool.mcp;

import io.modelcontextprotocol.server.McpServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.List;
import java.util.Map;

/** The tools of the tests' MCP servers, the same over Streamable HTTP and stdio. */
public final class McpTestTools {

    private McpTestTools() {
    }

    public static List<SyncToolSpecification> all() {
        return List.of(add(), echo(), slow(), broken(), picture());
    }

    /** {@code add}: two numbers in, their sum out as a JSON object in a text, and as structured content. */
    static SyncToolSpecification add() {
        return tool("add", "Adds two numbers", Map.of("type", "object", "properties",
                Map.of("a", Map.of("type", "number"), "b", Map.of("type", "number")), "required", List.of("a", "b")),
                arguments -> {
                    double sum = ((Number) arguments.get("a")).doubleValue() + ((Number) arguments.get("b"))
                            .doubleValue();
                    return McpSchema.CallToolResult.builder().addTextContent("{\"sum\": " + sum + "}")
                            .structuredContent(Map.of("sum", sum)).build();
                });
    }

    /** {@code echo}: the text it is given, as text. */
    static SyncToolSpecification echo() {
        return tool("echo", "Answers its text", Map.of("type", "object", "properties",
                Map.of("text", Map.of("type", "string")), "required", List.of("text")),
                arguments -> McpSchema.CallToolResult.builder().addTextContent("echo: " + arguments.get("text"))
                        .build());
    }

    /** {@code slow}: answers after the seconds it is given. */
    static SyncToolSpecification slow() {
        return tool("slow", "Takes its time", Map.of("type", "object", "properties",
                Map.of("seconds", Map.of("type", "number"))),
                arguments -> {
                    try {
                        Thread.sleep((long) (((Number) arguments.getOrDefault("seconds", 30)).doubleValue() * 1000));
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    return McpSchema.CallToolResult.builder().addTextContent("done").build();
                });
    }

    /** {@code broken}: answers an error result. */
    static SyncToolSpecification broken() {
        return tool("broken", "Always fails", Map.of("type", "object"),
                arguments -> McpSchema.CallToolResult.builder().addTextContent("the disk is on fire")
                        .isError(true).build());
    }

    /** The bytes {@code picture} answers as a PNG image: the signature and a few more. */
    public static final byte[] PICTURE = {(byte) 0x89, 'P', 'N', 'G', 13, 10, 26, 10, 0, 0, 0, 13, 'I', 'H', 'D',
        'R'};

    /** {@code picture}: a caption as text and {@link #PICTURE} as an image. */
    static SyncToolSpecification picture() {
        return tool("picture", "Draws a picture", Map.of("type", "object"),
                arguments -> McpSchema.CallToolResult.builder().content(List.of(
                        new McpSchema.TextContent("a picture"), new McpSchema.ImageContent(null,
                                java.util.Base64.getEncoder().encodeToString(PICTURE), "image/png"))).build());
    }

    private static SyncToolSpecification tool(String name, String description, Map<String, Object> schema,
            java.util.function.Function<Map<String, Object>, McpSchema.CallToolResult> handler) {
        return SyncToolSpecification.builder()
                .tool(McpSchema.Tool.builder().name(name).description(description).inputSchema(schema).build())
                .callHandler((exchange, request) -> handler.apply(request.arguments() == null ? Map.of()
                        : request.arguments()))
                .build();
    }
}
