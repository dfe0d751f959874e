package dev.hexaflow.app.config;

import dev.hexaflow.app.cli.UsageException;

/**
 * A PostgreSQL server as the store, instead of H2 in the data directory: HEXAFLOW_DATABASE_URL (or
 * {@code --database-url}), HEXAFLOW_DATABASE_USER and HEXAFLOW_DATABASE_PASSWORD. Whether the URL names a
 * PostgreSQL database is checked when the store is opened, where a refusal ends the process with its reason.
 *
 * @param user     empty for the driver's default (the URL's own, or the operating system's user)
 * @param password empty for none (the URL's own, or a server that asks for none)
 */
public record DatabaseServer(String url, String user, String password) {

    public DatabaseServer {
        if (url == null || url.isBlank()) {
            throw new UsageException("HEXAFLOW_DATABASE_URL must not be empty when set");
        }
        url = url.strip();
        user = user == null ? "" : user;
        password = password == null ? "" : password;
    }

    /** The URL without its parameters, which may hold a password: for messages and the start report. */
    public String shownUrl() {
        return dev.hexaflow.adapters.persistence.PostgresDatabase.shownUrl(url);
    }

    /** Without the password, which a record would print. */
    @Override
    public String toString() {
        return "DatabaseServer[url=" + shownUrl() + ", user=" + user + ", password=" + (password.isEmpty() ? "" : "***")
                + "]";
    }
}
