package dev.hexaflow.application.apps.service;

import dev.hexaflow.application.apps.port.in.UpdateSiteUseCase;
import dev.hexaflow.application.apps.port.out.AppRepository;
import dev.hexaflow.application.common.ApiError;
import dev.hexaflow.application.common.ApiException;
import dev.hexaflow.application.common.TextLimits;
import dev.hexaflow.domain.app.App;
import dev.hexaflow.domain.app.SiteSettings;
import java.util.LinkedHashMap;
import java.util.Map;

/** Replaces the site settings of an app that exists. */
public final class UpdateSiteService implements UpdateSiteUseCase {

    /** Short fields and the two long texts: together they fit the stored settings however they are escaped. */
    private static final int MAX_FIELD = 1000;
    private static final int MAX_TEXT = 4000;

    private final AppRepository apps;

    public UpdateSiteService(AppRepository apps) {
        this.apps = apps;
    }

    @Override
    public App enable(String appId, boolean enabled) {
        App app = find(appId).withSiteEnabled(enabled);
        apps.update(app);
        return app;
    }

    private App find(String appId) {
        return apps.find(appId).orElseThrow(() -> new ApiException(ApiError.NOT_FOUND, "App not found."));
    }

    @Override
    public SiteSettings update(String appId, SiteSettings settings) {
        App app = find(appId);
        Map<String, String> texts = new LinkedHashMap<>();
        texts.put("title", settings.title());
        texts.put("icon", settings.icon());
        texts.put("icon_background", settings.iconBackground());
        texts.put("icon_url", settings.iconUrl());
        texts.put("copyright", settings.copyright());
        texts.put("privacy_policy", settings.privacyPolicy());
        texts.put("default_language", settings.defaultLanguage());
        texts.forEach((field, text) -> TextLimits.atMost(field, text, MAX_FIELD));
        TextLimits.atMost("description", settings.description(), MAX_TEXT);
        TextLimits.atMost("custom_disclaimer", settings.customDisclaimer(), MAX_TEXT);
        apps.update(app.withSite(settings));
        return settings;
    }
}
