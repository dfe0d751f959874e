package dev.hexaflow.application.apps.port.in;

import java.util.List;
import dev.hexaflow.application.common.ApiException;

/** Issues, lists and revokes an app's API keys. */
public interface ManageAppKeysUseCase {

    /**
     * The app's keys, oldest first, never the keys themselves: each by its id (the start of its hash, by which it
     * is revoked), its hint, when it was issued and when last used.
     *
     * @throws ApiException NOT_FOUND for an unknown app
     */
    List<KeyInfo> list(String appId);

    /** A key as listed; {@code hint} is null for keys issued before hints were kept. */
    record KeyInfo(String id, String hint, long createdAt, Long lastUsedAt) {
    }

    /**
     * A new key ({@code app-} and 24 letters and digits), shown this once.
     *
     * @throws ApiException NOT_FOUND for an unknown app
     */
    String issue(String appId);

    /**
     * Revokes a key given whole, or by the id {@link #list} shows.
     *
     * @throws ApiException NOT_FOUND for an unknown app or a key it does not have
     */
    void revoke(String appId, String key);
}
