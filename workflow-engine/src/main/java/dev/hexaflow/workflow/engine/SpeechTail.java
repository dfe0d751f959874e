package dev.hexaflow.workflow.engine;

import dev.hexaflow.workflow.port.out.SpeechSynthesizer;
import dev.hexaflow.domain.workflow.DataTree;
import dev.hexaflow.domain.workflow.RunEvent;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

/**
 * The speech of a run whose app has text_to_speech on with autoplay: the run's streamed text, cut at sentence
 * ends into pieces of moderate size, each spoken and sent as a tts_message, then a tts_message_end. It follows
 * the run's events, as Dify's may.
 */
final class SpeechTail {

    static final int MAX_PIECE = 500;

    private final SpeechSynthesizer speech;
    private final String voice;
    private final StringBuilder text = new StringBuilder();

    private SpeechTail(SpeechSynthesizer speech, String voice) {
        this.speech = speech;
        this.voice = voice;
    }

    /** A tail for this app, or null when its speech is off or no synthesizer is configured. */
    static SpeechTail forApp(DataTree features, SpeechSynthesizer speech) {
        DataTree tts = features.tree("text_to_speech");
        if (speech == null || !speech.isConfigured() || !tts.bool("enabled", false)
                || !tts.string("autoPlay", "disabled").equals("enabled")) {
            return null;
        }
        return new SpeechTail(speech, tts.string("voice", ""));
    }

    /** Listens for text as it streams. */
    RunListener listening(RunListener next) {
        return event -> {
            if (event instanceof RunEvent.TextChunk chunk) {
                synchronized (text) {
                    text.append(chunk.text());
                }
            }
            next.on(event);
        };
    }

    /** Speaks the text gathered; a failure ends the speech early but never the run, which is over. */
    void speak(RunState state, String messageId) {
        String all;
        synchronized (text) {
            all = text.toString().strip();
        }
        for (String piece : pieces(all)) {
            if (state.stopped() && state.stop().kind() == RunState.StopKind.USER) {
                break;
            }
            try {
                byte[] audio = speech.synthesize(piece, voice, StopSignal.NEVER);
                state.emit(new RunEvent.TtsMessage(messageId, Base64.getEncoder().encodeToString(audio), state.now()));
            } catch (SpeechSynthesizer.SpeechException e) {
                break;
            }
        }
        state.emit(new RunEvent.TtsMessageEnd(messageId, state.now()));
    }

    /** Cuts text after sentence ends (. ! ? and their CJK forms, or a newline) into pieces of at most MAX_PIECE. */
    static List<String> pieces(String text) {
        List<String> pieces = new ArrayList<>();
        StringBuilder piece = new StringBuilder();
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            piece.append(c);
            boolean end = ".!?。！？\n".indexOf(c) >= 0;
            if ((end && piece.length() >= 80) || piece.length() >= MAX_PIECE) {
                add(pieces, piece);
            }
        }
        add(pieces, piece);
        return pieces;
    }

    private static void add(List<String> pieces, StringBuilder piece) {
        String text = piece.toString().strip();
        if (!text.isEmpty()) {
            pieces.add(text);
        }
        piece.setLength(0);
    }
}
