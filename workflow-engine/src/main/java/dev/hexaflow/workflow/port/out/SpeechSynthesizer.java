package dev.hexaflow.workflow.port.out;

import dev.hexaflow.workflow.engine.StopSignal;

/** Turns text into speech audio (mp3) for apps whose text_to_speech feature is on. */
public interface SpeechSynthesizer {

    boolean isConfigured();

    /**
     * @param voice    the app's chosen voice, or empty for the endpoint's default
     * @throws SpeechException when the endpoint fails
     */
    byte[] synthesize(String text, String voice, StopSignal stop);

    class SpeechException extends RuntimeException {
        public SpeechException(String message, Throwable cause) {
            super(message, cause);
        }
    }
}
