package dev.hexaflow.application.chat.service;

import dev.hexaflow.application.chat.port.in.TextToAudioUseCase;
import dev.hexaflow.application.chat.port.out.MessageRepository;
import dev.hexaflow.application.common.ApiError;
import dev.hexaflow.application.common.ApiException;
import dev.hexaflow.application.common.EndUsers;
import dev.hexaflow.domain.workflow.DataTree;
import dev.hexaflow.workflow.engine.StopSignal;
import dev.hexaflow.workflow.port.out.SpeechSynthesizer;

/**
 * Dify's text-to-audio for workflow and chatflow apps: the DSL's text_to_speech feature must be on, and gives the
 * voice unless the request names one; a message named is spoken only for the end user it belongs to.
 */
public final class TextToAudioService implements TextToAudioUseCase {

    private final ChatAccess access;
    private final MessageRepository messages;
    private final SpeechSynthesizer speech;

    public TextToAudioService(ChatAccess access, MessageRepository messages, SpeechSynthesizer speech) {
        this.access = access;
        this.messages = messages;
        this.speech = speech;
    }

    @Override
    public byte[] speak(TextToAudioCommand command) {
        String user = EndUsers.requireId(command.user());
        access.app(command.appId());
        DataTree feature = access.workflow(command.appId()).features().tree("text_to_speech");
        if (!feature.bool("enabled", false)) {
            throw new ApiException(ApiError.INVALID_PARAM, "TTS is not enabled");
        }
        String text = command.text();
        if (command.messageId() != null && !command.messageId().isBlank()) {
            text = access.endUserId(command.appId(), user)
                    .flatMap(endUser -> messages.find(command.appId(), endUser, command.messageId()))
                    .orElseThrow(() -> new ApiException(ApiError.NOT_FOUND, ChatAccess.MESSAGE_NOT_EXISTS))
                    .answer();
        }
        if (text == null || text.isBlank()) {
            throw new ApiException(ApiError.INVALID_PARAM, "Text is required");
        }
        if (!speech.isConfigured()) {
            throw new ApiException(ApiError.PROVIDER_NOT_INITIALIZE, "No default TTS model found. Please "
                    + "configure a TTS model first.");
        }
        String voice = command.voice() != null && !command.voice().isBlank() ? command.voice()
                : feature.string("voice", "");
        try {
            return speech.synthesize(text, voice, StopSignal.NEVER);
        } catch (SpeechSynthesizer.SpeechException e) {
            throw new ApiException(ApiError.COMPLETION_REQUEST_ERROR, "[openai] Error: " + e.getMessage());
        }
    }
}
