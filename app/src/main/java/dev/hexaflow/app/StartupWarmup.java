package dev.hexaflow.app;

import dev.hexaflow.adapters.nodes.template.JinjavaTemplateRenderer;
import java.util.List;
import java.util.Map;
import javax.net.ssl.SSLContext;
import org.flywaydb.core.Flyway;

/**
 * Loads and initialises, on a thread of its own, the libraries the server needs only after its database is open
 * (the HTTP server, TLS for outgoing requests, the template and script engines, YAML), while the main thread
 * opens and migrates the database: the start then takes the longer of the two paths, not their sum. Nothing it
 * makes is kept; a failure here only means the main thread loads the class itself.
 */
final class StartupWarmup {

    /** In the order the main thread comes to need them. */
    private static final List<String> CLASSES = List.of(
            "org.flywaydb.core.Flyway",
            "org.flywaydb.core.api.configuration.FluentConfiguration",
            "org.jdbi.v3.core.statement.ColonPrefixSqlParser",
            "com.fasterxml.jackson.dataformat.xml.XmlMapper",
            "biweekly.Biweekly",
            "io.javalin.Javalin",
            "io.javalin.config.JavalinConfig",
            "org.eclipse.jetty.server.Server",
            "org.eclipse.jetty.server.ServerConnector",
            "org.eclipse.jetty.server.HttpConnectionFactory",
            "org.eclipse.jetty.util.thread.QueuedThreadPool",
            "org.eclipse.jetty.ee10.servlet.ServletContextHandler",
            "org.mozilla.javascript.Context",
            "org.yaml.snakeyaml.Yaml",
            "com.fasterxml.jackson.dataformat.yaml.YAMLFactory",
            "java.net.http.HttpClient");

    private StartupWarmup() {
    }

    static void begin() {
        Thread thread = new Thread(StartupWarmup::warm, "hexaflow-warmup");
        thread.setDaemon(true);
        thread.setPriority(Thread.MIN_PRIORITY);
        thread.start();
    }

    private static void warm() {
        ClassLoader loader = StartupWarmup.class.getClassLoader();
        try {
            Flyway.configure(loader);
        } catch (RuntimeException | LinkageError e) {
            // Only a head start: the server makes these again when it needs them.
        }
        for (String name : CLASSES) {
            try {
                Class.forName(name, true, loader);
            } catch (ClassNotFoundException | LinkageError e) {
                // As above: a class this build does not have is simply not warmed.
            }
        }
        try {
            SSLContext.getDefault();
            new JinjavaTemplateRenderer().render("{{ greeting }}", Map.of("greeting", "hello"));
        } catch (Exception | LinkageError e) {
            // As above.
        }
    }
}
