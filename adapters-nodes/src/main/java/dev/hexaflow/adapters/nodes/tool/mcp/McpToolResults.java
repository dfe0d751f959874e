package dev.hexaflow.adapters.nodes.tool.mcp;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.hexaflow.workflow.port.out.ToolRunner.ToolException;
import dev.hexaflow.domain.tool.McpToolAddress;
import dev.hexaflow.domain.tool.ToolMessage;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * An MCP tool's answer as the tool messages Dify makes of it (core/tools/mcp_tool/tool.py): a text that is a JSON
 * object is a JSON message, a JSON list gives one per object in it, any other text is text; the structured
 * content's fields are variables. An answer marked as an error fails the call with its text.
 */
final class McpToolResults {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** The most text one answer may carry into a run, as the webscraper and api tools take at most. */
    static final long MAX_TEXT_CHARS = 10L * 1024 * 1024;
    /** The most bytes of files (images, audio) an answer may hold, as a tool file may. */
    static final long MAX_FILE_BYTES = 50L * 1024 * 1024;

    private McpToolResults() {
    }

    static List<ToolMessage> messages(McpToolAddress address, McpSchema.CallToolResult result) {
        List<McpSchema.Content> content = result.content() == null ? List.of() : result.content();
        if (Boolean.TRUE.equals(result.isError())) {
            String text = content.stream().filter(McpSchema.TextContent.class::isInstance)
                    .map(part -> ((McpSchema.TextContent) part).text()).collect(Collectors.joining("\n"));
            throw new ToolException("The MCP tool " + address.tool() + " of server " + address.server().name()
                    + " answered an error: " + (text.isBlank() ? "(no message)" : text));
        }
        long chars = 0;
        for (McpSchema.Content part : content) {
            if (part instanceof McpSchema.TextContent text && text.text() != null) {
                chars += text.text().length();
            } else if (part instanceof McpSchema.EmbeddedResource embedded
                    && embedded.resource() instanceof McpSchema.TextResourceContents resource
                    && resource.text() != null) {
                chars += resource.text().length();
            }
        }
        long encoded = 0;
        for (McpSchema.Content part : content) {
            String data = base64(part);
            encoded += data == null ? 0 : data.length();
        }
        if (encoded / 4 * 3 > MAX_FILE_BYTES) {
            throw new ToolException("The MCP tool " + address.tool() + " of server " + address.server().name()
                    + " answered files of more than " + MAX_FILE_BYTES + " bytes, more than a run keeps");
        }
        if (chars > MAX_TEXT_CHARS) {
            throw new ToolException("The MCP tool " + address.tool() + " of server " + address.server().name()
                    + " answered " + chars + " characters, more than the " + MAX_TEXT_CHARS + " a run takes");
        }
        List<ToolMessage> messages = new ArrayList<>();
        for (McpSchema.Content part : content) {
            if (part instanceof McpSchema.TextContent text) {
                messages.addAll(text(text.text()));
            } else if (part instanceof McpSchema.EmbeddedResource embedded
                    && embedded.resource() instanceof McpSchema.TextResourceContents resource) {
                messages.add(new ToolMessage.Text(resource.text()));
            } else if (base64(part) != null) {
                messages.add(blob(address, part));
            }
        }
        if (result.structuredContent() instanceof Map<?, ?> structured) {
            structured.forEach((name, value) -> messages.add(new ToolMessage.Variable(String.valueOf(name), value)));
        }
        return messages;
    }

    /** The base64 data of an image, audio or blob resource part; null for any other part. */
    private static String base64(McpSchema.Content part) {
        if (part instanceof McpSchema.ImageContent image) {
            return image.data();
        }
        if (part instanceof McpSchema.AudioContent audio) {
            return audio.data();
        }
        if (part instanceof McpSchema.EmbeddedResource embedded
                && embedded.resource() instanceof McpSchema.BlobResourceContents resource) {
            return resource.blob();
        }
        return null;
    }

    /** An image, audio or blob part as Dify's MCP tool gives it: a blob message of its decoded bytes. */
    private static ToolMessage blob(McpToolAddress address, McpSchema.Content part) {
        String mimeType = part instanceof McpSchema.ImageContent image ? image.mimeType()
                : part instanceof McpSchema.AudioContent audio ? audio.mimeType()
                : ((McpSchema.BlobResourceContents) ((McpSchema.EmbeddedResource) part).resource()).mimeType();
        String filename = part instanceof McpSchema.EmbeddedResource embedded ? lastSegment(
                embedded.resource().uri()) : null;
        try {
            byte[] bytes = Base64.getDecoder().decode(base64(part).replaceAll("\\s", ""));
            return new ToolMessage.Blob(bytes, mimeType, filename);
        } catch (IllegalArgumentException e) {
            throw new ToolException("The MCP tool " + address.tool() + " of server " + address.server().name()
                    + " answered a file whose data is not base64");
        }
    }

    private static String lastSegment(String uri) {
        if (uri == null) {
            return null;
        }
        String path = uri.replaceAll("[?#].*$", "");
        String name = path.substring(path.lastIndexOf('/') + 1);
        return name.isBlank() ? null : name;
    }

    private static List<ToolMessage> text(String text) {
        Object parsed;
        try {
            parsed = JSON.readValue(text, Object.class);
        } catch (JsonProcessingException e) {
            return List.of(new ToolMessage.Text(text));
        }
        if (parsed instanceof Map<?, ?>) {
            return List.of(new ToolMessage.Json(parsed));
        }
        if (parsed instanceof List<?> list && list.stream().anyMatch(Map.class::isInstance)) {
            return list.stream().filter(Map.class::isInstance).<ToolMessage>map(ToolMessage.Json::new).toList();
        }
        // Dify writes any other JSON value as Python's str() of it; its text is the closest here.
        return List.of(new ToolMessage.Text(text.strip()));
    }
}
