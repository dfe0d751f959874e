package dev.hexaflow.adapters.persistence.jdbi;

import java.util.function.Supplier;
import org.jdbi.v3.core.Jdbi;

/**
 * Secrets every instance of a store must hold alike, in {@code shared_secret}: the first instance that asks for
 * one adds the one it made, every later one (and every instance starting at the same moment) reads that one.
 */
public final class JdbiSharedSecrets {

    private final Jdbi jdbi;

    public JdbiSharedSecrets(Jdbi jdbi) {
        this.jdbi = jdbi;
    }

    /** The secret kept as {@code name}; when there is none yet, {@code made}'s, kept from now on. */
    public String secretOrAdd(String name, Supplier<String> made) {
        InsertIfAbsent.insert(jdbi, "shared_secret", "name", "secret", name, made.get());
        return jdbi.withHandle(handle -> handle.createQuery("SELECT secret FROM shared_secret WHERE name = :name")
                .bind("name", name).mapTo(String.class).one());
    }
}
