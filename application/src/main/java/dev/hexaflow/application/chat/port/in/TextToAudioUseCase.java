package dev.hexaflow.application.chat.port.in;

import dev.hexaflow.application.common.ApiException;

/** Speaks a text, or one of the end user's messages' answer, in the voice of the app's text-to-speech feature. */
public interface TextToAudioUseCase {

    /**
     * The speech, as mp3.
     *
     * @throws ApiException with Dify's code: no user, the feature off, no text, no speech endpoint, its failure
     */
    byte[] speak(TextToAudioCommand command);

    /**
     * @param messageId a message whose answer is spoken, or null to speak {@code text}
     * @param voice     the voice, or null for the feature's
     */
    record TextToAudioCommand(String appId, String user, String messageId, String text, String voice) {
    }
}
