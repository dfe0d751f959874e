package dev.hexaflow.application.annotations.service;

import dev.hexaflow.application.apps.port.out.AppRepository;
import dev.hexaflow.application.common.ApiError;
import dev.hexaflow.application.common.ApiException;
import dev.hexaflow.domain.app.App;
import java.util.Set;
import java.util.UUID;

/** What every annotation use case checks first: the app is a chat app, the only kind a reply answers. */
final class AnnotatedApps {

    /** Dify's modes whose turns an annotation can answer. */
    static final Set<String> CHAT_MODES = Set.of("advanced-chat", "chat", "agent-chat");
    static final String ANNOTATION_NOT_FOUND = "Annotation not found";

    private final AppRepository apps;

    AnnotatedApps(AppRepository apps) {
        this.apps = apps;
    }

    /** @throws ApiException NOT_FOUND for an unknown app, NOT_CHAT_APP for one that is not a chat app */
    App chatApp(String appId) {
        App app = apps.find(appId).orElseThrow(() -> new ApiException(ApiError.NOT_FOUND, "App not found"));
        if (!CHAT_MODES.contains(app.mode())) {
            throw new ApiException(ApiError.NOT_CHAT_APP, "Please check if your app mode matches the right API "
                    + "route.");
        }
        return app;
    }

    /** Dify's routes take only a UUID where an id goes: anything else is a URL it does not have. */
    static boolean isUuid(String text) {
        try {
            return text != null && text.length() == 36 && UUID.fromString(text) != null;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }
}
