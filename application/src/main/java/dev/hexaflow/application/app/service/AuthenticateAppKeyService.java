package dev.hexaflow.application.app.service;

import dev.hexaflow.application.app.port.in.AuthenticateAppKeyUseCase;
import dev.hexaflow.application.app.port.out.AppKeyRepository;
import dev.hexaflow.domain.app.AppKey;
import dev.hexaflow.domain.secret.SecretHash;
import java.util.Optional;

/** A key's app by the key's hash; a text that is not shaped as a key is no key, without a lookup. */
public final class AuthenticateAppKeyService implements AuthenticateAppKeyUseCase {

    private final AppKeyRepository keys;

    AuthenticateAppKeyService(AppKeyRepository keys) {
        this.keys = keys;
    }

    @Override
    public Optional<String> appOf(String key) {
        if (!AppKey.looksLikeKey(key)) {
            return Optional.empty();
        }
        return keys.find(SecretHash.of(key)).map(AppKey::appId);
    }
}
