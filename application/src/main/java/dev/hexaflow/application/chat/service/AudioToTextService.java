package dev.hexaflow.application.chat.service;

import dev.hexaflow.application.chat.port.in.AudioToTextUseCase;
import dev.hexaflow.application.chat.port.out.SpeechTranscriber;
import dev.hexaflow.application.common.ApiError;
import dev.hexaflow.application.common.ApiException;
import dev.hexaflow.application.common.EndUsers;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Locale;

/**
 * Dify's audio-to-text ({@code AudioService.transcript_asr}), checked in its order: the app's speech_to_text
 * feature, an audio file, one of its audio types, at most {@link #MAX_MEGABYTES} MB; then the transcription
 * endpoint. Only the limit and one byte more are read of what came.
 */
public final class AudioToTextService implements AudioToTextUseCase {

    /** Dify's FILE_SIZE for audio. */
    static final int MAX_MEGABYTES = 30;
    /** Dify's ALLOWED_EXTENSIONS, taken as {@code audio/<extension>} MIME types. */
    static final List<String> AUDIO_TYPES = List.of("mp3", "mp4", "mpeg", "mpga", "m4a", "wav", "webm", "amr")
            .stream().map(extension -> "audio/" + extension).toList();

    private final ChatAccess access;
    private final SpeechTranscriber transcriber;

    public AudioToTextService(ChatAccess access, SpeechTranscriber transcriber) {
        this.access = access;
        this.transcriber = transcriber;
    }

    @Override
    public String transcribe(AudioToTextCommand command) {
        EndUsers.requireId(command.user());
        access.app(command.appId());
        if (!access.workflow(command.appId()).features().tree("speech_to_text").bool("enabled", false)) {
            throw new ApiException(ApiError.INVALID_PARAM, "Speech to text is not enabled");
        }
        if (command.content() == null) {
            throw new ApiException(ApiError.NO_AUDIO_UPLOADED, "Please upload your audio.");
        }
        String mimeType = command.mimeType() == null ? "" : command.mimeType().split(";", 2)[0].strip()
                .toLowerCase(Locale.ROOT);
        if (!AUDIO_TYPES.contains(mimeType)) {
            throw new ApiException(ApiError.UNSUPPORTED_AUDIO_TYPE, "Audio type not allowed.");
        }
        int limit = MAX_MEGABYTES * 1024 * 1024;
        byte[] audio;
        try {
            audio = command.content().readNBytes(limit + 1);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        if (audio.length > limit) {
            throw new ApiException(ApiError.AUDIO_TOO_LARGE, "Audio size larger than " + MAX_MEGABYTES + " mb");
        }
        if (!transcriber.isConfigured()) {
            throw new ApiException(ApiError.PROVIDER_NOT_SUPPORT_SPEECH_TO_TEXT,
                    "Provider not support speech to text.");
        }
        try {
            // The endpoint tells the format by the name's extension: the client's name, or one from the type.
            String filename = command.filename() != null && command.filename().contains(".") ? command.filename()
                    : "audio." + mimeType.substring("audio/".length());
            return transcriber.transcribe(audio, filename, mimeType);
        } catch (SpeechTranscriber.TranscriptionException e) {
            throw new ApiException(ApiError.COMPLETION_REQUEST_ERROR, "[openai] Error: " + e.getMessage());
        }
    }
}
