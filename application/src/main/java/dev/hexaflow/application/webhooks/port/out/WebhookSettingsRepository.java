package dev.hexaflow.application.webhooks.port.out;

import dev.hexaflow.domain.webhook.CallbackUrl;
import dev.hexaflow.domain.webhook.WebhookSettings;
import java.util.Map;

/** Keeps each app's webhook settings: its default callback and its signing secret. */
public interface WebhookSettingsRepository {

    /** The app's settings; {@link WebhookSettings#none} when it has none. */
    WebhookSettings find(String appId);

    /** Sets the app's default callback (null to clear), keeping its secret. */
    void setDefaultCallback(String appId, CallbackUrl url);

    /** Replaces the app's secret. */
    void setSecret(String appId, String secret);

    /** Keeps {@code candidate} as the app's secret unless it has one; answers the secret it has then. */
    String secretOrAdd(String appId, String candidate);

    /** Every app's default callback, by app id. */
    Map<String, CallbackUrl> defaultCallbacks();
}
