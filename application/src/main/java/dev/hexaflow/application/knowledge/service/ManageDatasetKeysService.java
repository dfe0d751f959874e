package dev.hexaflow.application.knowledge.service;

import dev.hexaflow.application.common.port.out.SecretGenerator;
import dev.hexaflow.application.knowledge.port.in.KnowledgeException;
import dev.hexaflow.application.knowledge.port.in.ManageDatasetKeysUseCase;
import dev.hexaflow.application.knowledge.port.out.DatasetKeyRepository;
import dev.hexaflow.domain.knowledge.DatasetKey;
import dev.hexaflow.domain.secret.SecretHash;
import java.time.Clock;

/** Dataset keys are kept hashed; a text without a key's form is refused without a lookup. */
public final class ManageDatasetKeysService implements ManageDatasetKeysUseCase {

    private final DatasetKeyRepository keys;
    private final SecretGenerator secrets;
    private final Clock clock;

    public ManageDatasetKeysService(DatasetKeyRepository keys, SecretGenerator secrets, Clock clock) {
        this.keys = keys;
        this.secrets = secrets;
        this.clock = clock;
    }

    @Override
    public String issue() {
        String key = DatasetKey.PREFIX + secrets.newSecret(DatasetKey.RANDOM_LENGTH);
        keys.add(new DatasetKey(SecretHash.of(key), clock.instant().getEpochSecond()));
        return key;
    }

    @Override
    public void check(String token) {
        if (!DatasetKey.looksLikeKey(token) || keys.find(SecretHash.of(token)).isEmpty()) {
            // Dify's words for any token it does not find, an app key among them.
            throw new KnowledgeException(KnowledgeException.Reason.UNAUTHORIZED, "Access token is invalid");
        }
    }

    @Override
    public void revoke(String key) {
        if (key == null || !DatasetKey.looksLikeKey(key) || !keys.delete(SecretHash.of(key))) {
            throw new KnowledgeException(KnowledgeException.Reason.NOT_FOUND, "There is no such dataset key.");
        }
    }
}
