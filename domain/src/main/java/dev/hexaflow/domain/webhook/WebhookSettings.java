package dev.hexaflow.domain.webhook;

/**
 * An app's webhook settings: the callback its runs use when the request names none (null for none), and the
 * secret its deliveries are signed with (null until first needed).
 */
public record WebhookSettings(String appId, CallbackUrl defaultCallback, String secret) {

    public WebhookSettings {
        if (appId == null || appId.isBlank()) {
            throw new IllegalArgumentException("webhook settings need their app's id");
        }
    }

    public static WebhookSettings none(String appId) {
        return new WebhookSettings(appId, null, null);
    }

    public WebhookSettings withDefaultCallback(CallbackUrl url) {
        return new WebhookSettings(appId, url, secret);
    }

    public WebhookSettings withSecret(String next) {
        return new WebhookSettings(appId, defaultCallback, next);
    }

    /** Never the secret: settings end up in logs. */
    @Override
    public String toString() {
        return "WebhookSettings[appId=" + appId + ", defaultCallback=" + defaultCallback + "]";
    }
}
