package dev.hexaflow.app;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.Configurator;
import ch.qos.logback.classic.spi.ConfiguratorRank;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.ConsoleAppender;
import ch.qos.logback.core.spi.ContextAwareBase;
import dev.hexaflow.app.config.LogSettings.LogFormat;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The server's log lines, set up in code: text on standard error (standard output carries the commands' results),
 * at INFO, with the libraries' chatter at WARN. Logback finds it through {@code META-INF/services} before it looks
 * for a {@code logback.xml}: reading one cost a start's thread some 60 ms and 430 classes (Logback's Joran and an XML
 * parser; BENCHMARKS.md, issue 40). An operator's own file, named by {@code -Dlogback.configurationFile}, is read
 * instead.
 */
@ConfiguratorRank(ConfiguratorRank.CUSTOM_NORMAL_PRIORITY)
public final class LogSetup extends ContextAwareBase implements Configurator {

    /** The property that names an operator's own Logback file. */
    static final String OWN_FILE = "logback.configurationFile";
    static final String PATTERN = "%d{yyyy-MM-dd'T'HH:mm:ss.SSSZ} [%thread] %level %logger{0} - %msg%n";

    /** Loggers whose level is not the root's. */
    static Map<String, Level> levels() {
        Map<String, Level> levels = new LinkedHashMap<>();
        levels.put("org.eclipse.jetty", Level.WARN);
        levels.put("org.flywaydb", Level.WARN);
        levels.put("io.javalin", Level.WARN);
        levels.put("com.zaxxer.hikari", Level.WARN);
        // A connection the database ended is told once per request it failed, in one line, by the HTTP server;
        // the pool's own warning repeats it with a stack trace for each connection it drops.
        levels.put("com.zaxxer.hikari.pool.ProxyConnection", Level.ERROR);
        return levels;
    }

    @Override
    public ExecutionStatus configure(LoggerContext context) {
        String own = System.getProperty(OWN_FILE);
        if (own != null && found(own)) {
            return ExecutionStatus.INVOKE_NEXT_IF_ANY;
        }
        if (own != null) {
            // Logback would fall back to its bare default (DEBUG, on standard output, which carries results).
            addWarn("The Logback file " + own + " named by -D" + OWN_FILE + " is not there; the server's own "
                    + "set-up is used");
        }
        context.putProperty(LogOutput.TEXT_PATTERN, PATTERN);
        ConsoleAppender<ILoggingEvent> appender = new ConsoleAppender<>();
        appender.setContext(context);
        appender.setName(LogOutput.APPENDER);
        appender.setTarget("System.err");
        appender.setEncoder(LogOutput.encoder(LogFormat.TEXT, context));
        appender.start();
        Logger root = context.getLogger(Logger.ROOT_LOGGER_NAME);
        root.setLevel(Level.INFO);
        root.addAppender(appender);
        levels().forEach((name, level) -> context.getLogger(name).setLevel(level));
        return ExecutionStatus.DO_NOT_INVOKE_NEXT_IF_ANY;
    }

    /** Whether Logback can read {@code name}: a resource on the class path, a file, or a URL (other than a file's). */
    static boolean found(String name) {
        if (LogSetup.class.getClassLoader().getResource(name) != null) {
            return true;
        }
        try {
            URI uri = new URI(name);
            if (uri.getScheme() != null && uri.getScheme().length() > 1) {
                return !uri.getScheme().equals("file") || Files.isRegularFile(Path.of(uri));
            }
        } catch (URISyntaxException | IllegalArgumentException e) {
            // Not a URL: a path.
        }
        try {
            return Files.isRegularFile(Path.of(name));
        } catch (InvalidPathException e) {
            return false;
        }
    }
}
