package dev.hexaflow.application.apps.service;

import dev.hexaflow.application.apps.port.in.ManageAppKeysUseCase;
import dev.hexaflow.application.apps.port.out.AppKeyRepository;
import dev.hexaflow.application.apps.port.out.AppRepository;
import dev.hexaflow.application.common.ApiError;
import dev.hexaflow.application.common.ApiException;
import dev.hexaflow.domain.app.AppKey;
import dev.hexaflow.domain.secret.SecretHash;
import java.util.List;

/** Keys are issued for apps that exist, and revoked only from the app they belong to. */
public final class ManageAppKeysService implements ManageAppKeysUseCase {

    private static final int ID_LENGTH = 12;

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
    public List<KeyInfo> list(String appId) {
        apps.find(appId).orElseThrow(() -> new ApiException(ApiError.NOT_FOUND, "App not found."));
        return keys.list(appId).stream().map(listed -> new KeyInfo(idOf(listed.key().hash()), listed.key().hint(),
                listed.key().createdAt(), listed.lastUsedAt())).toList();
    }

    /** A key's id: the start of its hash, enough to tell an app's keys apart and nothing to guess the key by. */
    private static String idOf(SecretHash hash) {
        return hash.hex().substring(0, ID_LENGTH);
    }

    @Override
    public void revoke(String appId, String key) {
        apps.find(appId).orElseThrow(() -> new ApiException(ApiError.NOT_FOUND, "App not found."));
        SecretHash hash = key == null ? null : AppKey.looksLikeKey(key) ? SecretHash.of(key) : byId(appId, key);
        if (hash == null || !keys.delete(appId, hash)) {
            throw new ApiException(ApiError.NOT_FOUND, "The app has no such key.");
        }
    }

    private SecretHash byId(String appId, String id) {
        if (id.length() != ID_LENGTH) {
            return null;
        }
        return keys.list(appId).stream().map(listed -> listed.key().hash())
                .filter(hash -> idOf(hash).equals(id)).findFirst().orElse(null);
    }
}
