package dev.hexaflow.application.apps.port.in;

import dev.hexaflow.application.common.ApiError;
import dev.hexaflow.application.common.ApiException;
import java.util.Objects;

/**
 * Whom a bearer token speaks for: an app, through its key, for any of its end users; or a web user of the app,
 * through a token its page handed out, for that user alone.
 *
 * @param pageUser the web user a page token acts for; null for an app key
 * @param keyId    which of the app's keys it came with (not a secret: the start of the key's hash), for the limits
 *                 and budgets per key; null for a page token
 */
public record Caller(String appId, String pageUser, String keyId) {

    public Caller {
        Objects.requireNonNull(appId, "appId");
    }

    /** A caller through one of the app's keys, not named. */
    public static Caller appKey(String appId) {
        return new Caller(appId, null, null);
    }

    /** A caller through the app's key whose id is {@code keyId}. */
    public static Caller appKey(String appId, String keyId) {
        return new Caller(appId, null, keyId);
    }

    public static Caller page(String appId, String user) {
        return new Caller(appId, Objects.requireNonNull(user, "user"), null);
    }

    /**
     * The end user a request acts for when it names {@code requested} (null when it names none): the one named,
     * for an app key; for a page token, its own user only, and only when the request names that user.
     *
     * @throws ApiException FORBIDDEN when a page token's request names another user, or none
     */
    public String userFor(String requested) {
        if (pageUser == null || pageUser.equals(requested)) {
            return requested;
        }
        throw new ApiException(ApiError.FORBIDDEN, "A web page's token acts for its own user only.");
    }
}
