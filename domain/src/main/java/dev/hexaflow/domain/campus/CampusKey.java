package dev.hexaflow.domain.campus;

import dev.hexaflow.domain.secret.SecretHash;

/** A campus feed API key as kept: only its hash, its usage count and whether it is banned. */
public record CampusKey(SecretHash hash, long requests, boolean banned) {

    public CampusKey {
        if (hash == null) {
            throw new IllegalArgumentException("hash must not be null");
        }
        if (requests < 0) {
            throw new IllegalArgumentException("requests must not be negative, was " + requests);
        }
    }

    public static CampusKey issued(SecretHash hash) {
        return new CampusKey(hash, 0, false);
    }

    public CampusKey ban() {
        return new CampusKey(hash, requests, true);
    }
}
