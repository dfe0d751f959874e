package dev.hexaflow.application.chat.port.in;

import java.io.InputStream;

/** Transcribes an end user's spoken audio into text, for an app whose speech-to-text feature is on. */
public interface AudioToTextUseCase {

    /**
     * The audio's text.
     *
     * @throws dev.hexaflow.application.common.ApiException with Dify's code: the feature off, no audio, a type
     *                                                           or a size Dify refuses, no endpoint, its failure
     */
    String transcribe(AudioToTextCommand command);

    /**
     * What the multipart request held.
     *
     * @param user    the end user, or null (Dify's form does not ask for it)
     * @param content the audio, or null when no {@code file} part came
     */
    record AudioToTextCommand(String appId, String user, String filename, String mimeType, InputStream content) {
    }
}
