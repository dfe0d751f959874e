package dev.hexaflow.application.campus.service;

import dev.hexaflow.application.campus.port.in.IssueCampusKeyUseCase;
import dev.hexaflow.application.campus.port.out.CampusKeyRepository;
import dev.hexaflow.application.common.port.out.SecretGenerator;
import dev.hexaflow.domain.campus.CampusKey;
import dev.hexaflow.domain.secret.SecretHash;

/** Issues keys of 32 letters and digits, as long as the real feed's keys were. */
public final class IssueCampusKeyService implements IssueCampusKeyUseCase {

    static final int KEY_LENGTH = 32;

    private final CampusKeyRepository keys;
    private final SecretGenerator secrets;

    public IssueCampusKeyService(CampusKeyRepository keys, SecretGenerator secrets) {
        this.keys = keys;
        this.secrets = secrets;
    }

    @Override
    public String issue() {
        String key = secrets.newSecret(KEY_LENGTH);
        keys.add(CampusKey.issued(SecretHash.of(key)));
        return key;
    }
}
