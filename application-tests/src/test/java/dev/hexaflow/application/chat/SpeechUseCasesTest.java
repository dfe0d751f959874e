package dev.hexaflow.application.chat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hexaflow.application.chat.port.in.AudioToTextUseCase.AudioToTextCommand;
import dev.hexaflow.application.chat.port.in.TextToAudioUseCase.TextToAudioCommand;
import dev.hexaflow.application.chat.port.out.SpeechTranscriber;
import dev.hexaflow.application.chat.service.AudioToTextService;
import dev.hexaflow.application.chat.service.TextToAudioService;
import dev.hexaflow.application.common.ApiError;
import dev.hexaflow.application.common.ApiException;
import dev.hexaflow.domain.chat.Conversation;
import dev.hexaflow.domain.chat.Message;
import dev.hexaflow.workflow.engine.StopSignal;
import dev.hexaflow.workflow.port.out.SpeechSynthesizer;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;

/**
 * Text to audio and audio to text on the chat bed: the features come from the chatflow's DSL, speech and
 * transcription are fakes that keep what they were asked and answer a text made of it.
 */
class SpeechUseCasesTest {

    private final ChatBed bed = new ChatBed();
    private final List<String> spoken = new ArrayList<>();
    private boolean speechConfigured = true;
    private boolean speechFails;
    private final SpeechSynthesizer speech = new SpeechSynthesizer() {
        @Override
        public boolean isConfigured() {
            return speechConfigured;
        }

        @Override
        public byte[] synthesize(String text, String voice, StopSignal stop) {
            if (speechFails) {
                throw new SpeechException("the speech endpoint answered 429", null);
            }
            spoken.add(voice + ":" + text);
            return ("audio of " + text).getBytes(StandardCharsets.UTF_8);
        }
    };
    private final List<String> heard = new ArrayList<>();
    private final SpeechTranscriber transcriber = new SpeechTranscriber() {
        @Override
        public boolean isConfigured() {
            return true;
        }

        @Override
        public String transcribe(byte[] audio, String filename, String mimeType) {
            heard.add(filename + " " + mimeType + " " + audio.length);
            return "transcribed " + audio.length + " bytes";
        }
    };
    private final TextToAudioService textToAudio = new TextToAudioService(bed.access, bed.messages, speech);
    private final AudioToTextService audioToText = new AudioToTextService(bed.access, transcriber);

    SpeechUseCasesTest() {
        bed.features = Map.of("text_to_speech", Map.of("enabled", true, "voice", "alloy"),
                "speech_to_text", Map.of("enabled", true));
    }

    private byte[] speak(String user, String messageId, String text, String voice) {
        return textToAudio.speak(new TextToAudioCommand(ChatBed.CHAT_APP, user, messageId, text, voice));
    }

    private String transcribe(String filename, String mimeType, InputStream content) {
        return audioToText.transcribe(new AudioToTextCommand(ChatBed.CHAT_APP, ChatBed.ADA, filename, mimeType,
                content));
    }

    @Test
    void aTextIsSpokenInTheFeaturesVoiceUnlessTheRequestNamesOne() {
        byte[] audio = speak(ChatBed.ADA, null, "hello", null);
        speak(ChatBed.ADA, null, "again", "nova");

        assertThat(new String(audio, StandardCharsets.UTF_8)).isEqualTo("audio of hello");
        assertThat(spoken).containsExactly("alloy:hello", "nova:again");
    }

    @Test
    void aMessageIsSpokenByItsAnswerOnlyForItsOwnEndUser() {
        Conversation conversation = bed.conversation("c-1", ChatBed.ADA, "hi");
        Message message = bed.turn("m-1", conversation, "hi", "Hello, Ada!");

        speak(ChatBed.ADA, message.id(), "ignored", null);

        assertThat(spoken).containsExactly("alloy:Hello, Ada!");
        assertRefused(() -> speak(ChatBed.BOB, message.id(), null, null), ApiError.NOT_FOUND, "Message Not Exists.");
        assertRefused(() -> speak("stranger", message.id(), null, null), ApiError.NOT_FOUND, "Message Not Exists.");
    }

    @Test
    void speechIsRefusedWhenTheFeatureIsOffTheTextBlankOrNoModelConfigured() {
        assertRefused(() -> speak(ChatBed.ADA, null, " ", null), ApiError.INVALID_PARAM, "Text is required");
        assertRefused(() -> speak(" ", null, "hi", null), ApiError.INVALID_PARAM, "Arg user must be provided.");
        speechConfigured = false;
        assertRefused(() -> speak(ChatBed.ADA, null, "hi", null), ApiError.PROVIDER_NOT_INITIALIZE,
                "No default TTS model found. Please configure a TTS model first.");
        bed.features = Map.of();
        assertRefused(() -> speak(ChatBed.ADA, null, "hi", null), ApiError.INVALID_PARAM, "TTS is not enabled");

        assertThat(spoken).isEmpty();
    }

    @Test
    void aFailingSpeechEndpointIsACompletionRequestError() {
        speechFails = true;

        assertRefused(() -> speak(ChatBed.ADA, null, "hi", null), ApiError.COMPLETION_REQUEST_ERROR,
                "[openai] Error: the speech endpoint answered 429");
    }

    @Test
    void anAppWithoutAPublishedWorkflowOrAnUnknownAppIsRefused() {
        assertRefused(() -> textToAudio.speak(new TextToAudioCommand(ChatBed.FLOW_APP, ChatBed.ADA, null, "hi",
                null)), ApiError.APP_UNAVAILABLE, "App unavailable, please check your app configurations.");
        assertRefused(() -> textToAudio.speak(new TextToAudioCommand("app-none", ChatBed.ADA, null, "hi", null)),
                ApiError.NOT_FOUND, "App not found.");
    }

    @Test
    void anAudioIsTranscribedWithANameThatTellsItsFormat() {
        String text = transcribe(null, "audio/mp3; codecs=x", new ByteArrayInputStream(new byte[7]));
        transcribe("memo.wav", "audio/wav", new ByteArrayInputStream(new byte[3]));

        assertThat(text).isEqualTo("transcribed 7 bytes");
        assertThat(heard).containsExactly("audio.mp3 audio/mp3 7", "memo.wav audio/wav 3");
    }

    @Test
    void anAudioIsRefusedWhenTheFeatureIsOffMissingOfAnotherTypeOrTooLarge() {
        assertRefused(() -> transcribe("a.mp3", "audio/mp3", null), ApiError.NO_AUDIO_UPLOADED,
                "Please upload your audio.");
        assertRefused(() -> transcribe("a.ogg", "audio/ogg", new ByteArrayInputStream(new byte[1])),
                ApiError.UNSUPPORTED_AUDIO_TYPE, "Audio type not allowed.");
        assertRefused(() -> transcribe("a.mp3", "audio/mp3", new ByteArrayInputStream(new byte[30 * 1024 * 1024
                + 1])), ApiError.AUDIO_TOO_LARGE, "Audio size larger than 30 mb");
        bed.features = Map.of();
        assertRefused(() -> transcribe("a.mp3", "audio/mp3", new ByteArrayInputStream(new byte[1])),
                ApiError.INVALID_PARAM, "Speech to text is not enabled");

        assertThat(heard).isEmpty();
    }

    private static void assertRefused(ThrowingCallable call, ApiError error, String message) {
        assertThatThrownBy(call).isInstanceOfSatisfying(ApiException.class, e -> {
            assertThat(e.error()).isEqualTo(error);
            assertThat(e.getMessage()).isEqualTo(message);
        });
    }
}
