package dev.hexaflow.adapters.nodes.tool.convert;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hexaflow.adapters.nodes.fakes.StopSwitch;
import dev.hexaflow.domain.tool.ToolMessage;
import dev.hexaflow.domain.tool.ToolProviderType;
import dev.hexaflow.domain.tool.ToolRef;
import dev.hexaflow.domain.workflow.FileValue;
import dev.hexaflow.workflow.port.out.ToolRunner.ToolException;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** The expected texts are Python's base64 module's, as the plugin calls it. */
class JdkBase64ToolRunnerTest {

    private static final byte[] PNG = {(byte) 0x89, 'P', 'N', 'G', 13, 10, 26, 10, 0, 1};

    private final Map<String, byte[]> stored = new HashMap<>();
    private JdkBase64ToolRunner runner = new JdkBase64ToolRunner((file, stop) -> stored.get(file.id()),
            ConversionLimits.DEFAULTS);

    private List<ToolMessage> run(String tool, Object... pairs) {
        Map<String, Object> arguments = new HashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            arguments.put((String) pairs[i], pairs[i + 1]);
        }
        return runner.run(new ToolRef(ToolProviderType.PLUGIN, "bowenliang123/base64_codec/base64_codec", tool),
                arguments, new StopSwitch());
    }

    private String text(String tool, Object... pairs) {
        return run(tool, pairs).stream().map(m -> ((ToolMessage.Text) m).text()).collect(Collectors.joining());
    }

    @Test
    void textGoesToBase64AndBackInEitherAlphabet() {
        assertThat(text("base64_encoder", "plain_text", "héllo?>", "urlsafe_enabled", "false"))
                .isEqualTo("aMOpbGxvPz4=");
        assertThat(text("base64_encoder", "plain_text", "héllo?>", "urlsafe_enabled", "true"))
                .isEqualTo("aMOpbGxvPz4=".replace('+', '-').replace('/', '_'));
        assertThat(text("base64_decoder", "encoded_text", "aMOpbGxvPz4=")).isEqualTo("héllo?>");
        assertThat(text("base64_decoder", "encoded_text", "")).isEmpty();
        assertThat(text("base64_to_hex", "encoded_text", "AAEC/w==")).isEqualTo("000102ff");
        assertThat(text("hex_to_base64", "hex_text", "0x000102ff")).isEqualTo("AAEC/w==");
        assertThatThrownBy(() -> run("hex_to_base64", "hex_text", "abc")).isInstanceOf(ToolException.class)
                .hasMessage("Invalid hex text, exception: the length of hex text must be an even number.");
        assertThatThrownBy(() -> run("base64_decoder", "encoded_text", "/w==")).hasMessage(
                "Failed to decode Base64 text input, Exception: the bytes are not UTF-8 text");
    }

    @Test
    void aLongTextComesInPiecesOf512() {
        List<ToolMessage> messages = run("base64_encoder", "plain_text", "x".repeat(1000));
        assertThat(messages).hasSize(3);
        assertThat(((ToolMessage.Text) messages.get(0)).text()).hasSize(512);
    }

    @Test
    void filesAndImagesBecomeBase64AndBase64BecomesFiles() {
        stored.put("img", PNG);
        FileValue image = new FileValue("img", "image", "local_file", null, "img", "a.png", ".png", "image/png",
                PNG.length, null);
        String encoded = Base64.getEncoder().encodeToString(PNG);
        assertThat(text("base64_file_encoder", "input_file", image)).isEqualTo(encoded);
        assertThat(text("base64_image_encoder", "input_image", List.of(image)))
                .isEqualTo("data:image/png;base64," + encoded);

        List<ToolMessage> files = run("base64_file_decoder", "encoded_text", encoded + "\n\n"
                + Base64.getEncoder().encodeToString("plain".getBytes(StandardCharsets.UTF_8)), "output_filename",
                "picture\nnotes.txt");
        assertThat(files).hasSize(2);
        ToolMessage.Blob picture = (ToolMessage.Blob) files.get(0);
        assertThat(picture.content()).isEqualTo(PNG);
        assertThat(picture.mimeType()).isEqualTo("image/png");
        assertThat(picture.filename()).isEqualTo("picture.png");
        assertThat(((ToolMessage.Blob) files.get(1)).mimeType()).isEqualTo("text/plain");

        ToolMessage.Blob decoded = (ToolMessage.Blob) run("base64_image_decoder", "encoded_text",
                "data:image/jpeg;base64," + encoded).get(0);
        assertThat(decoded.mimeType()).isEqualTo("image/jpeg");
        assertThat(decoded.content()).isEqualTo(PNG);
        assertThatThrownBy(() -> run("base64_file_decoder", "encoded_text", ""))
                .hasMessage("Empty input encoded_text");
    }

    @Test
    void theTextAndOutputLimitsHold() {
        runner = new JdkBase64ToolRunner((file, stop) -> stored.get(file.id()), new ConversionLimits(20, 100, 1, 1,
                10));
        assertThatThrownBy(() -> run("base64_encoder", "plain_text", "x".repeat(21)))
                .hasMessage("The parameter plain_text has 21 characters, more than the 20 this tool reads");
        assertThatThrownBy(() -> run("base64_encoder", "plain_text", "x".repeat(9)))
                .hasMessage("The result has 12 bytes, more than the 10 this tool answers");
        assertThatThrownBy(() -> run("base64_file_decoder", "encoded_text", "eHh4eHh4eHh4eHh4eHg="))
                .hasMessage("The result has 14 bytes, more than the 10 this tool answers");
    }
}
