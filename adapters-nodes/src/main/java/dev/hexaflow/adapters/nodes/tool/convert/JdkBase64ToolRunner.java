package dev.hexaflow.adapters.nodes.tool.convert;

import dev.hexaflow.domain.tool.ToolDescription;
import dev.hexaflow.domain.tool.ToolMessage;
import dev.hexaflow.domain.tool.ToolProviderType;
import dev.hexaflow.domain.tool.ToolRef;
import dev.hexaflow.domain.workflow.FileValue;
import dev.hexaflow.domain.workflow.Values;
import dev.hexaflow.workflow.engine.StopSignal;
import dev.hexaflow.workflow.port.out.FileContents;
import dev.hexaflow.workflow.port.out.ToolRunner;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The plugin {@code bowenliang123/base64_codec} on the JDK's Base64: text to and from Base64 (standard or URL-safe
 * alphabet), a file or an image to Base64 text (an image with its {@code data:} prefix), Base64 text to files (one
 * per segment between delimiters, {@code \n\n} by default), and Base64 to and from hexadecimal. Texts are answered
 * in pieces of 512 characters, as the plugin sends them. A decoded file's type is read from its first bytes (PNG,
 * JPEG, GIF, WebP, PDF, zip) or else its name.
 */
public final class JdkBase64ToolRunner implements ToolRunner {

    static final String PROVIDER = "bowenliang123/base64_codec/base64_codec";

    private static final Pattern DATA_IMAGE = Pattern.compile("data:image/([\\w\\-+]+);base64");
    private static final Map<String, List<String>> TOOLS = new LinkedHashMap<>();

    static {
        TOOLS.put("base64_encoder", List.of("plain_text", "urlsafe_enabled"));
        TOOLS.put("base64_decoder", List.of("encoded_text", "urlsafe_enabled"));
        TOOLS.put("base64_file_encoder", List.of("input_file"));
        TOOLS.put("base64_file_decoder", List.of("encoded_text", "output_filename", "splitter_str"));
        TOOLS.put("base64_image_encoder", List.of("input_image"));
        TOOLS.put("base64_image_decoder", List.of("encoded_text", "output_filename", "splitter_str"));
        TOOLS.put("base64_to_hex", List.of("encoded_text", "urlsafe_enabled"));
        TOOLS.put("hex_to_base64", List.of("hex_text", "urlsafe_enabled"));
    }

    private final ToolFiles files;
    private final ConversionLimits limits;

    public JdkBase64ToolRunner(FileContents files, ConversionLimits limits) {
        this.files = new ToolFiles(files, limits);
        this.limits = limits;
    }

    /** The tools it runs, as {@code provider/tool}. */
    public static List<String> labels() {
        return TOOLS.keySet().stream().map(tool -> PROVIDER + "/" + tool).toList();
    }

    @Override
    public Optional<ToolDescription> describe(ToolRef tool) {
        boolean ours = (tool.type() == ToolProviderType.BUILTIN || tool.type() == ToolProviderType.PLUGIN)
                && (tool.provider().equals(PROVIDER) || tool.provider().equals("base64_codec"));
        List<String> parameters = ours ? TOOLS.get(tool.tool()) : null;
        if (parameters == null) {
            return Optional.empty();
        }
        Map<String, Object> properties = new LinkedHashMap<>();
        parameters.forEach(name -> properties.put(name, Map.of("type", name.startsWith("input_") ? "object"
                : "string")));
        return Optional.of(new ToolDescription(tool, tool.tool().replace('_', ' '), Map.of("type", "object",
                "properties", properties, "required", List.of(parameters.get(0)))));
    }

    @Override
    public List<ToolMessage> run(ToolRef tool, Map<String, Object> arguments, StopSignal stop) {
        boolean urlsafe = text(arguments, "urlsafe_enabled").strip().equalsIgnoreCase("true");
        return switch (tool.tool()) {
            case "base64_encoder" -> chunks(encode(text(arguments, "plain_text").getBytes(StandardCharsets.UTF_8),
                    urlsafe));
            case "base64_decoder" -> decodeText(text(arguments, "encoded_text"), urlsafe);
            case "base64_to_hex" -> chunks(HexFormat.of().formatHex(decode(text(arguments, "encoded_text"),
                    urlsafe, "Failed to covert Base64 text to Hex text, Exception: ")));
            case "hex_to_base64" -> chunks(encode(hex(text(arguments, "hex_text")), urlsafe));
            case "base64_file_encoder", "base64_image_encoder" -> encodeFile(tool.tool(), arguments, stop);
            default -> decodeFiles(tool.tool().equals("base64_image_decoder"), arguments);
        };
    }

    private List<ToolMessage> encodeFile(String tool, Map<String, Object> arguments, StopSignal stop) {
        String parameter = tool.equals("base64_file_encoder") ? "input_file" : "input_image";
        FileValue file = ToolFiles.fileOf(parameter, arguments.get(parameter)).orElseThrow(() ->
                new ToolException("Not a valid file for input " + parameter));
        String encoded = encode(files.read(parameter, file, stop), false);
        String prefix = parameter.equals("input_image") ? "data:" + file.mimeType() + ";base64," : "";
        return chunks(prefix + encoded);
    }

    private List<ToolMessage> decodeText(String encoded, boolean urlsafe) {
        if (encoded.isEmpty()) {
            return List.of(new ToolMessage.Text(""));
        }
        byte[] bytes = decode(encoded, urlsafe, "Failed to decode Base64 text input, Exception: ");
        try {
            return List.of(new ToolMessage.Text(StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(bytes))
                    .toString()));
        } catch (CharacterCodingException e) {
            throw new ToolException("Failed to decode Base64 text input, Exception: the bytes are not UTF-8 text");
        }
    }

    private List<ToolMessage> decodeFiles(boolean images, Map<String, Object> arguments) {
        String encoded = limits.text("encoded_text", text(arguments, "encoded_text"));
        if (encoded.isEmpty()) {
            throw new ToolException(images ? "Invalid input encoded_text" : "Empty input encoded_text");
        }
        String splitter = text(arguments, "splitter_str").strip().replace("\\n", "\n");
        List<String> segments = List.of(encoded.split(Pattern.quote(splitter.isEmpty() ? "\n\n" : splitter)));
        List<String> names = List.of(text(arguments, "output_filename").split("\n")).stream()
                .filter(name -> !name.isEmpty()).toList();
        List<ToolMessage> messages = new ArrayList<>();
        long total = 0;
        for (String segment : segments.stream().filter(s -> !s.isEmpty()).toList()) {
            String name = messages.size() < names.size() ? names.get(messages.size()) : null;
            int comma = segment.indexOf(',');
            String mimeType = images ? imageType(comma < 0 ? null : segment.substring(0, comma)) : null;
            byte[] bytes = decode(comma < 0 ? segment : segment.substring(comma + 1), false,
                    "Failed to decode base64 text, error: ");
            total += bytes.length;
            limits.outputSize(total);
            messages.add(images ? new ToolMessage.Blob(bytes, mimeType, name) : FileTypes.blob(bytes, name));
        }
        return messages;
    }

    /** The plugin's image type: {@code data:image/x;base64} gives image/x, no prefix PNG. */
    private static String imageType(String prefix) {
        if (prefix == null) {
            return "image/png";
        }
        Matcher matcher = DATA_IMAGE.matcher(prefix);
        return matcher.find() ? "image/" + matcher.group(1) : null;
    }

    private static String encode(byte[] bytes, boolean urlsafe) {
        return (urlsafe ? Base64.getUrlEncoder() : Base64.getEncoder()).encodeToString(bytes);
    }

    /** Python's lenient decoding: characters outside the alphabet are passed over. */
    private static byte[] decode(String text, boolean urlsafe, String failure) {
        String standard = urlsafe ? text.replace('-', '+').replace('_', '/') : text;
        try {
            return Base64.getMimeDecoder().decode(standard);
        } catch (IllegalArgumentException e) {
            throw new ToolException(failure + e.getMessage());
        }
    }

    private static byte[] hex(String given) {
        String hex = given.strip();
        hex = hex.startsWith("0x") ? hex.substring(2) : hex;
        if (hex.length() % 2 != 0) {
            throw new ToolException("Invalid hex text, exception: the length of hex text must be an even number.");
        }
        try {
            return HexFormat.of().parseHex(hex);
        } catch (IllegalArgumentException e) {
            throw new ToolException("Invalid hex text, exception: " + e.getMessage());
        }
    }

    private List<ToolMessage> chunks(String text) {
        limits.outputSize(text.length());
        List<ToolMessage> messages = new ArrayList<>();
        for (int i = 0; i < text.length(); i += 512) {
            messages.add(new ToolMessage.Text(text.substring(i, Math.min(text.length(), i + 512))));
        }
        return messages;
    }

    private String text(Map<String, Object> arguments, String name) {
        Object value = arguments.get(name);
        return limits.text(name, value == null ? "" : value instanceof String s ? s : Values.text(value));
    }
}
