package dev.hexaflow.application.apps.port.in;

import dev.hexaflow.application.common.ApiException;
import dev.hexaflow.domain.app.App;

/** An app's public web page: the app behind a site code, and the short-lived tokens the page runs it with. */
public interface WebAppUseCase {

    /** @throws ApiException NOT_FOUND for a code that names no app, or an app whose page is turned off */
    App open(String siteCode);

    /**
     * A new token for the app's page, acting for {@code user} when it is an id a page keeps ({@code web-} and 32
     * lowercase hex digits), else for a new such id; the same refusals as {@link #open}.
     */
    WebToken issueToken(String siteCode, String user);

    /**
     * @param user the web user the token acts for, which the page keeps
     * @param expiresAt Unix seconds
     */
    record WebToken(String token, String appId, String user, long expiresAt) {
    }
}
