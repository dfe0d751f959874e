package dev.hexaflow.application.campus.service;

import dev.hexaflow.application.campus.port.in.BanCampusKeyUseCase;
import dev.hexaflow.application.campus.port.out.CampusKeyRepository;
import dev.hexaflow.domain.secret.SecretHash;

/** Bans a key by the key itself; its hash finds it. */
public final class BanCampusKeyService implements BanCampusKeyUseCase {

    private final CampusKeyRepository keys;

    public BanCampusKeyService(CampusKeyRepository keys) {
        this.keys = keys;
    }

    @Override
    public void ban(String key) {
        if (key == null || key.isBlank() || !keys.ban(SecretHash.of(key))) {
            throw new UnknownCampusKeyException();
        }
    }
}
