package dev.hexaflow.application.app.service;

import dev.hexaflow.application.app.port.in.ApiError;
import dev.hexaflow.application.app.port.in.ApiException;
import dev.hexaflow.application.app.port.in.UpdateSiteUseCase;
import dev.hexaflow.application.app.port.out.AppRepository;
import dev.hexaflow.domain.app.App;
import dev.hexaflow.domain.app.SiteSettings;

/** Replaces the site settings of an app that exists. */
public final class UpdateSiteService implements UpdateSiteUseCase {

    private final AppRepository apps;

    UpdateSiteService(AppRepository apps) {
        this.apps = apps;
    }

    @Override
    public SiteSettings update(String appId, SiteSettings settings) {
        App app = apps.find(appId).orElseThrow(() -> new ApiException(ApiError.NOT_FOUND, "App not found."));
        apps.update(app.withSite(settings));
        return settings;
    }
}
