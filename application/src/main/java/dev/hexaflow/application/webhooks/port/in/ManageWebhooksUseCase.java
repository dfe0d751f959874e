package dev.hexaflow.application.webhooks.port.in;

import java.util.Map;
import java.util.Optional;

/** The operator's webhook settings of an app: its default callback URL and its signing secret. */
public interface ManageWebhooksUseCase {

    /**
     * Sets the callback an app's runs use when their request names none; null clears it. Answers it as kept.
     *
     * @throws dev.hexaflow.application.common.ApiException NOT_FOUND for an unknown app, INVALID_PARAM for
     *     a URL that is not an http or https one of at most 2048 characters
     */
    Optional<String> setDefaultCallback(String appId, String url);

    /** The app's default callback, if it has one. */
    Optional<String> defaultCallback(String appId);

    /** Every app's default callback, by app id. */
    Map<String, String> defaultCallbacks();

    /**
     * Draws a new signing secret for the app's deliveries and answers it: the only time it is shown. Deliveries
     * sent from now on are signed with it.
     *
     * @throws dev.hexaflow.application.common.ApiException NOT_FOUND for an unknown app
     */
    String rotateSecret(String appId);
}
