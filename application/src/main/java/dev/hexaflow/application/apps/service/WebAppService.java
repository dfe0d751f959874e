package dev.hexaflow.application.apps.service;

import dev.hexaflow.application.apps.port.in.WebAppUseCase;
import dev.hexaflow.application.apps.port.out.AppRepository;
import dev.hexaflow.application.common.ApiError;
import dev.hexaflow.application.common.ApiException;
import dev.hexaflow.domain.app.App;
import java.util.Optional;

/** The app behind a site code while its page is on, and the tokens that page runs it with. */
public final class WebAppService implements WebAppUseCase {

    private final AppRepository apps;
    private final WebTokens tokens;

    public WebAppService(AppRepository apps, WebTokens tokens) {
        this.apps = apps;
        this.tokens = tokens;
    }

    @Override
    public App open(String siteCode) {
        Optional<App> app = App.looksLikeSiteCode(siteCode) ? apps.findBySiteCode(siteCode) : Optional.empty();
        return app.filter(App::siteEnabled)
                .orElseThrow(() -> new ApiException(ApiError.NOT_FOUND,
                        "There is no web page here: the address is wrong, or the app's page has been turned off."));
    }

    @Override
    public WebToken issueToken(String siteCode, String user) {
        App app = open(siteCode);
        // Any other id (an API integration's "alice", an email) stays out of a page's reach: the page gets its own.
        String webUser = WebTokens.isWebUser(user) ? user : WebTokens.newWebUser();
        long expiresAt = tokens.newExpiry();
        return new WebToken(tokens.issue(app.id(), webUser, expiresAt), app.id(), webUser, expiresAt);
    }
}
