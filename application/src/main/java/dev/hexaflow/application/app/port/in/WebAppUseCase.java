package dev.hexaflow.application.app.port.in;

import dev.hexaflow.domain.app.App;

/** An app's public web page: the app behind a site code, and the short-lived tokens the page runs it with. */
public interface WebAppUseCase {

    /** @throws ApiException NOT_FOUND for a code that names no app, or an app whose page is turned off */
    App open(String siteCode);

    /** A new token for the app's page; the same refusals as {@link #open}. */
    WebToken issueToken(String siteCode);

    /** @param expiresAt Unix seconds */
    record WebToken(String token, String appId, long expiresAt) {
    }
}
