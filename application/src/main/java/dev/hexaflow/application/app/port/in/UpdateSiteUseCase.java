package dev.hexaflow.application.app.port.in;

import dev.hexaflow.domain.app.SiteSettings;

/** Replaces an app's web page settings. */
public interface UpdateSiteUseCase {

    /** @throws ApiException NOT_FOUND for an unknown app */
    SiteSettings update(String appId, SiteSettings settings);
}
