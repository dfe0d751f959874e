package dev.hexaflow.app;

import dev.hexaflow.adapters.persistence.jdbi.JdbiSharedSecrets;
import dev.hexaflow.app.config.Configuration;
import dev.hexaflow.app.config.DataDirectory;
import dev.hexaflow.app.wiring.Storage;
import dev.hexaflow.application.common.port.out.SecretGenerator;
import dev.hexaflow.domain.secret.SecretHash;
import java.util.Optional;

/** Where the admin token comes from: set by the operator, kept in the data directory, or shared in the store. */
final class AdminTokens {

    private static final String SHARED_ADMIN_TOKEN = "admin_token";

    /** The admin token as this start knows it: its hash, and the token itself where this start made it. */
    record AdminToken(SecretHash hash, Optional<String> madeNow) {
    }

    private AdminTokens() {
    }

    /** An instance alone on its store: the token set (HEXAFLOW_ADMIN_TOKEN), or the data directory's own. */
    static AdminToken ofDirectory(Storage storage, Configuration config, SecretGenerator secrets) {
        DataDirectory.AdminToken kept = config.adminToken()
                .map(token -> new DataDirectory.AdminToken(token, false))
                .orElseGet(() -> storage.directory().adminToken(secrets));
        return new AdminToken(SecretHash.of(kept.value()), kept.madeNow() ? Optional.of(kept.value()) : Optional.empty());
    }

    /**
     * The admin token of instances that share the store, kept there as its hash. A token set for this instance
     * (HEXAFLOW_ADMIN_TOKEN) is its own, and the shared one if there was none yet; otherwise the shared one, which
     * the first instance takes from a token kept in the data directory (by a version that kept it there) or makes
     * and shows.
     */
    static AdminToken shared(Storage storage, Configuration config, SecretGenerator secrets) {
        JdbiSharedSecrets shared = new JdbiSharedSecrets(storage.jdbi());
        if (config.adminToken().isPresent()) {
            SecretHash configured = SecretHash.of(config.adminToken().get());
            shared.secretOrAdd(SHARED_ADMIN_TOKEN, configured::hex);
            return new AdminToken(configured, Optional.empty());
        }
        Optional<String> kept = storage.directory().keptAdminToken();
        String candidate = kept.orElseGet(() -> DataDirectory.newAdminToken(secrets));
        String hash = shared.secretOrAdd(SHARED_ADMIN_TOKEN, () -> SecretHash.of(candidate).hex());
        boolean madeNow = kept.isEmpty() && hash.equals(SecretHash.of(candidate).hex());
        return new AdminToken(new SecretHash(hash), madeNow ? Optional.of(candidate) : Optional.empty());
    }
}
