package dev.hexaflow.application.apps.port.in;

import dev.hexaflow.application.common.ApiException;
import dev.hexaflow.domain.app.App;
import dev.hexaflow.domain.app.SiteSettings;

/** Replaces an app's web page settings. */
public interface UpdateSiteUseCase {

    /** @throws ApiException NOT_FOUND for an unknown app */
    SiteSettings update(String appId, SiteSettings settings);

    /**
     * Turns the app's web page on or off; off, its page answers 404 and the tokens it handed out are refused.
     *
     * @throws ApiException NOT_FOUND for an unknown app
     */
    App enable(String appId, boolean enabled);
}
