package dev.hexaflow.application.webhooks.service;

import dev.hexaflow.application.apps.port.out.AppRepository;
import dev.hexaflow.application.common.ApiError;
import dev.hexaflow.application.common.ApiException;
import dev.hexaflow.application.common.port.out.SecretGenerator;
import dev.hexaflow.application.webhooks.port.in.ManageWebhooksUseCase;
import dev.hexaflow.application.webhooks.port.out.WebhookSettingsRepository;
import dev.hexaflow.domain.webhook.CallbackUrl;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/** Sets an app's default callback and rotates its secret, for an app that exists. */
public final class ManageWebhooksService implements ManageWebhooksUseCase {

    private final AppRepository apps;
    private final WebhookSettingsRepository settings;
    private final SecretGenerator secrets;

    public ManageWebhooksService(AppRepository apps, WebhookSettingsRepository settings, SecretGenerator secrets) {
        this.apps = apps;
        this.settings = settings;
        this.secrets = secrets;
    }

    @Override
    public Optional<String> setDefaultCallback(String appId, String url) {
        requireApp(appId);
        CallbackUrl callback = url == null ? null : callbackUrl(url);
        settings.setDefaultCallback(appId, callback);
        return Optional.ofNullable(callback).map(CallbackUrl::value);
    }

    /** A callback URL as a request gives it, or Dify's invalid_param naming what is wrong. */
    public static CallbackUrl callbackUrl(String url) {
        try {
            return new CallbackUrl(url);
        } catch (IllegalArgumentException e) {
            throw new ApiException(ApiError.INVALID_PARAM, e.getMessage());
        }
    }

    @Override
    public Optional<String> defaultCallback(String appId) {
        return Optional.ofNullable(settings.find(appId).defaultCallback()).map(CallbackUrl::value);
    }

    @Override
    public Map<String, String> defaultCallbacks() {
        Map<String, String> urls = new LinkedHashMap<>();
        settings.defaultCallbacks().forEach((app, url) -> urls.put(app, url.value()));
        return urls;
    }

    @Override
    public String rotateSecret(String appId) {
        requireApp(appId);
        String secret = secrets.newSecret(DeliverCallbacksService.SECRET_LENGTH);
        settings.setSecret(appId, secret);
        return secret;
    }

    private void requireApp(String appId) {
        if (apps.find(appId).isEmpty()) {
            throw new ApiException(ApiError.NOT_FOUND, "App not found.");
        }
    }
}
