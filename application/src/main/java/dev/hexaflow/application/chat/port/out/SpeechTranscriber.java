package dev.hexaflow.application.chat.port.out;

/** Turns spoken audio into its text, for apps whose speech_to_text feature is on. */
public interface SpeechTranscriber {

    boolean isConfigured();

    /**
     * @param filename the audio's name, whose extension tells the endpoint its format
     * @throws TranscriptionException when the endpoint fails
     */
    String transcribe(byte[] audio, String filename, String mimeType);

    /** The endpoint failed; the message says how. */
    class TranscriptionException extends RuntimeException {
        public TranscriptionException(String message, Throwable cause) {
            super(message, cause);
        }
    }
}
