package dev.hexaflow.adapters.persistence.jdbi;

import java.sql.SQLException;
import java.util.function.Supplier;
import org.jdbi.v3.core.Jdbi;
import org.jdbi.v3.core.statement.UnableToExecuteStatementException;

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
        String candidate = made.get();
        try {
            jdbi.useHandle(handle -> handle.createUpdate("INSERT INTO shared_secret (name, secret) SELECT :name, "
                    + ":secret FROM (VALUES (1)) AS one (x) WHERE NOT EXISTS (SELECT 1 FROM shared_secret WHERE "
                    + "name = :name)").bind("name", name).bind("secret", candidate).execute());
        } catch (UnableToExecuteStatementException e) {
            if (!(e.getCause() instanceof SQLException sql && sql.getSQLState() != null
                    && sql.getSQLState().startsWith("23"))) {
                throw e;
            }
            // Another instance added it between the check and the insert: its secret is the one.
        }
        return jdbi.withHandle(handle -> handle.createQuery("SELECT secret FROM shared_secret WHERE name = :name")
                .bind("name", name).mapTo(String.class).one());
    }
}
