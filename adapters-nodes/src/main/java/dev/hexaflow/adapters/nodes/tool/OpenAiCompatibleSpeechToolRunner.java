package dev.hexaflow.adapters.nodes.tool;

import dev.hexaflow.workflow.engine.StopSignal;
import dev.hexaflow.workflow.port.out.SpeechSynthesizer;
import dev.hexaflow.workflow.port.out.ToolRunner;
import dev.hexaflow.domain.tool.ToolDescription;
import dev.hexaflow.domain.tool.ToolMessage;
import dev.hexaflow.domain.tool.ToolProviderType;
import dev.hexaflow.domain.tool.ToolRef;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Dify's built-in {@code audio} tool {@code tts}: the text spoken through the speech endpoint (the server's
 * OpenAI-compatible {@code /audio/speech}), answered as Dify's tool answers it, "Audio generated successfully"
 * and the audio as a blob, which becomes a tool file in the node's {@code files}. The node's model choice
 * ({@code model}, {@code provider#model}) names a model of Dify's providers; the endpoint's own speech model
 * speaks here, with the voice the node chose for that model ({@code voice#provider#model}) or the endpoint's
 * default. The audio is the endpoint's mp3, so it is said to be {@code audio/mpeg}, where Dify says
 * {@code audio/x-wav} of whatever its model made.
 */
public final class OpenAiCompatibleSpeechToolRunner implements ToolRunner {

    static final String PROVIDER = "audio";
    private static final ToolDescription TTS = new ToolDescription(new ToolRef(ToolProviderType.BUILTIN, PROVIDER,
            "tts"), "Convert text to speech", BuiltinArguments.schema(List.of("model", "text"), Map.of(),
                    List.of("text")));

    private final SpeechSynthesizer speech;

    public OpenAiCompatibleSpeechToolRunner(SpeechSynthesizer speech) {
        this.speech = speech;
    }

    /** The tools it runs, as {@code provider/tool}. */
    public static List<String> labels() {
        return List.of(PROVIDER + "/tts");
    }

    @Override
    public Optional<ToolDescription> describe(ToolRef tool) {
        boolean ours = (tool.type() == ToolProviderType.BUILTIN || tool.type() == ToolProviderType.PLUGIN)
                && tool.provider().equals(PROVIDER) && tool.tool().equals("tts");
        return ours ? Optional.of(new ToolDescription(tool, TTS.description(), TTS.inputSchema())) : Optional.empty();
    }

    @Override
    public List<ToolMessage> run(ToolRef tool, Map<String, Object> arguments, StopSignal stop) {
        if (!speech.isConfigured()) {
            throw new ToolException("No speech endpoint is configured: set HEXAFLOW_LLM_BASE_URL (and "
                    + "HEXAFLOW_TTS_MODEL) for the audio tool to speak");
        }
        BuiltinArguments args = new BuiltinArguments(arguments);
        String text = args.text("text", "");
        if (text.isBlank()) {
            throw new ToolException("text is required");
        }
        String model = args.text("model", "");
        String voice = model.contains("#") ? args.text("voice#" + model, "") : "";
        byte[] audio;
        try {
            audio = speech.synthesize(text, voice, stop);
        } catch (SpeechSynthesizer.SpeechException e) {
            throw new ToolException(e.getMessage(), e);
        }
        return List.of(new ToolMessage.Text("Audio generated successfully"),
                new ToolMessage.Blob(audio, "audio/mpeg", null));
    }
}
