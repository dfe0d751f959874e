package dev.hexaflow.application.apps.port.in;

import dev.hexaflow.application.common.ApiException;

/** Issues and revokes an app's API keys. */
public interface ManageAppKeysUseCase {

    /**
     * A new key ({@code app-} and 24 letters and digits), shown this once.
     *
     * @throws ApiException NOT_FOUND for an unknown app
     */
    String issue(String appId);

    /** @throws ApiException NOT_FOUND for an unknown app or a key it does not have */
    void revoke(String appId, String key);
}
