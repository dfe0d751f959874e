package dev.hexaflow.application.apps.service;

import dev.hexaflow.application.apps.port.in.AuthenticateUseCase;
import dev.hexaflow.application.apps.port.in.Caller;
import dev.hexaflow.application.apps.port.out.AppKeyRepository;
import dev.hexaflow.application.apps.port.out.AppRepository;
import dev.hexaflow.application.common.ApiError;
import dev.hexaflow.application.common.ApiException;
import dev.hexaflow.domain.app.App;
import dev.hexaflow.domain.app.AppKey;
import dev.hexaflow.domain.secret.SecretHash;
import java.time.Clock;

/**
 * An app key by its hash, for every operation; a web page's token by its signature and end, for what a page
 * does, for the web user it was handed to, while the app's page is on. A text shaped as neither is no token, without a lookup.
 */
public final class AuthenticateService implements AuthenticateUseCase {

    private static final String INVALID = "Access token is invalid";

    private final AppKeyRepository keys;
    private final AppRepository apps;
    private final WebTokens webTokens;
    private final Clock clock;

    public AuthenticateService(AppKeyRepository keys, AppRepository apps, WebTokens webTokens, Clock clock) {
        this.keys = keys;
        this.apps = apps;
        this.webTokens = webTokens;
        this.clock = clock;
    }

    @Override
    public Caller callerOf(String token, Operation operation) {
        if (AppKey.looksLikeKey(token)) {
            AppKey key = keys.find(SecretHash.of(token))
                    .orElseThrow(() -> new ApiException(ApiError.UNAUTHORIZED, INVALID));
            keys.used(key.hash(), clock.instant().getEpochSecond());
            return Caller.appKey(key.appId(), key.hash().hex().substring(0, 16));
        }
        WebTokens.Claims claims = webTokens.read(token)
                .orElseThrow(() -> new ApiException(ApiError.UNAUTHORIZED, INVALID));
        if (webTokens.hasEnded(claims)) {
            throw new ApiException(ApiError.UNAUTHORIZED, "Access token has expired");
        }
        App app = apps.find(claims.appId()).orElseThrow(() -> new ApiException(ApiError.UNAUTHORIZED, INVALID));
        if (!app.siteEnabled()) {
            throw new ApiException(ApiError.FORBIDDEN, "This app's web page has been turned off.");
        }
        if (!operation.openToWebPages()) {
            throw new ApiException(ApiError.FORBIDDEN, "A web page's token cannot " + operation.forKeysOnly()
                    + "; use the app's API key.");
        }
        return Caller.page(app.id(), claims.user());
    }
}
