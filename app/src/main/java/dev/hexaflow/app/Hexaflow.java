package dev.hexaflow.app;

import dev.hexaflow.adapters.http.JavalinHttpServer;
import dev.hexaflow.adapters.http.RouteGroup;
import dev.hexaflow.adapters.http.admin.AdminAuthorization;
import dev.hexaflow.adapters.http.admin.AdminCampusRoutes;
import dev.hexaflow.adapters.http.campus.CampusFeedRoutes;
import dev.hexaflow.domain.secret.SecretHash;
import java.time.Clock;
import java.util.List;
import java.util.Optional;

/** The composition root and launcher: a running server over its storage, started and stopped as one. */
public final class Hexaflow implements AutoCloseable {

    private final Storage storage;
    private final JavalinHttpServer server;
    private final StartReport report;

    private Hexaflow(Storage storage, JavalinHttpServer server, StartReport report) {
        this.storage = storage;
        this.server = server;
        this.report = report;
    }

    /**
     * Opens the data directory, loads the bundled data on a first start, and starts serving.
     *
     * @throws StartupException when the data directory or the port is taken
     */
    public static Hexaflow start(Configuration config) {
        SecureRandomSecretGenerator secrets = new SecureRandomSecretGenerator();
        Storage storage = Storage.open(config.dataDir());
        try {
            DataDirectory.AdminToken adminToken = config.adminToken()
                    .map(token -> new DataDirectory.AdminToken(token, false))
                    .orElseGet(() -> storage.directory().adminToken(secrets));
            CampusModule campus = new CampusModule(storage.jdbi(), secrets, Clock.systemUTC());
            Optional<String> newCampusKey = Optional.empty();
            if (storage.fresh()) {
                campus.loadBundledData();
                newCampusKey = Optional.of(campus.issueKey.issue());
            }
            AdminAuthorization admin = new AdminAuthorization(SecretHash.of(adminToken.value()));
            List<RouteGroup> routes = List.of(
                    new CampusFeedRoutes(campus.feed),
                    new AdminCampusRoutes(admin, campus.issueKey, campus.banKey, campus.importData));
            JavalinHttpServer server = startServer(config, routes);
            String baseUrl = "http://" + clientHost(config.host()) + ":" + server.port();
            StartReport report = new StartReport(baseUrl, config.dataDir(),
                    adminToken.madeNow() ? Optional.of(adminToken.value()) : Optional.empty(), newCampusKey);
            return new Hexaflow(storage, server, report);
        } catch (RuntimeException e) {
            storage.close();
            throw e;
        }
    }

    private static JavalinHttpServer startServer(Configuration config, List<RouteGroup> routes) {
        try {
            return JavalinHttpServer.start(config.host(), config.port(), routes);
        } catch (JavalinHttpServer.PortUnavailableException e) {
            throw new StartupException(e.getMessage() + ". Choose another with --port.", e);
        }
    }

    /** The host a client on this machine should call: a wildcard address is reached on loopback. */
    private static String clientHost(String host) {
        if (host.equals("0.0.0.0") || host.equals("::") || host.equals("[::]")) {
            return "127.0.0.1";
        }
        return host.contains(":") && !host.startsWith("[") ? "[" + host + "]" : host;
    }

    public int port() {
        return server.port();
    }

    public String baseUrl() {
        return report.baseUrl();
    }

    StartReport report() {
        return report;
    }

    @Override
    public void close() {
        try {
            server.close();
        } finally {
            storage.close();
        }
    }
}
