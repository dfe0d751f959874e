package dev.hexaflow.application.apps.service;

import dev.hexaflow.application.apps.port.in.ManageAppKeysUseCase;
import dev.hexaflow.application.apps.port.out.AppKeyRepository;
import dev.hexaflow.application.apps.port.out.AppRepository;
import dev.hexaflow.application.common.ApiError;
import dev.hexaflow.application.common.ApiException;
import dev.hexaflow.domain.secret.SecretHash;

/** Keys are issued for apps that exist, and revoked only from the app they belong to. */
public final class ManageAppKeysService implements ManageAppKeysUseCase {

    private final Publications publications;
    private final AppRepository apps;
    private final AppKeyRepository keys;

    public ManageAppKeysService(Publications publications, AppRepository apps, AppKeyRepository keys) {
        this.publications = publications;
        this.apps = apps;
        this.keys = keys;
    }

    @Override
    public String issue(String appId) {
        apps.find(appId).orElseThrow(() -> new ApiException(ApiError.NOT_FOUND, "App not found."));
        return publications.issueKey(appId);
    }

    @Override
    public void revoke(String appId, String key) {
        apps.find(appId).orElseThrow(() -> new ApiException(ApiError.NOT_FOUND, "App not found."));
        if (key == null || !keys.delete(appId, SecretHash.of(key))) {
            throw new ApiException(ApiError.NOT_FOUND, "The app has no such key.");
        }
    }
}
