package dev.hexaflow.application.app.service;

import dev.hexaflow.application.app.port.in.ApiError;
import dev.hexaflow.application.app.port.in.ApiException;
import dev.hexaflow.application.app.port.in.UpdateSiteUseCase;
import dev.hexaflow.application.app.port.out.AppRepository;
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

    UpdateSiteService(AppRepository apps) {
        this.apps = apps;
    }

    @Override
    public SiteSettings update(String appId, SiteSettings settings) {
        App app = apps.find(appId).orElseThrow(() -> new ApiException(ApiError.NOT_FOUND, "App not found."));
        Map<String, String> texts = new LinkedHashMap<>();
        texts.put("title", settings.title());
        texts.put("icon", settings.icon());
        texts.put("icon_background", settings.iconBackground());
        texts.put("icon_url", settings.iconUrl());
        texts.put("copyright", settings.copyright());
        texts.put("privacy_policy", settings.privacyPolicy());
        texts.put("default_language", settings.defaultLanguage());
        texts.forEach((field, text) -> checkLength(field, text, MAX_FIELD));
        checkLength("description", settings.description(), MAX_TEXT);
        checkLength("custom_disclaimer", settings.customDisclaimer(), MAX_TEXT);
        apps.update(app.withSite(settings));
        return settings;
    }

    private static void checkLength(String field, String text, int max) {
        if (text != null && text.length() > max) {
            throw new ApiException(ApiError.INVALID_PARAM, field + " must be at most " + max + " characters.");
        }
    }
}
