package dev.hexaflow.app;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.Configurator;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.hexaflow.app.config.LogSettings.LogFormat;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The server's own appender (set up by LogSetup, on standard error) writes today's text lines, and JSON objects
 * once HEXAFLOW_LOG_FORMAT=json is put on it; a bad value stops the start with one line naming the setting. The
 * levels are those the operations guide states, and an operator's own Logback file replaces the whole set-up.
 */
class LogOutputTest {

    private static final Logger LOG = LoggerFactory.getLogger(Hexaflow.class);

    @Test
    void theServersLinesAreTextByDefaultAndJsonObjectsWhenAskedFor() throws Exception {
        String text = written(() -> LOG.info("a text line"));
        String json;
        try {
            LogOutput.use(LogFormat.JSON);
            json = written(() -> LOG.atWarn().addKeyValue("app_id", "app-1").log("a json line"));
        } finally {
            LogOutput.use(LogFormat.TEXT);
        }
        String textAgain = written(() -> LOG.info("text again"));

        assertThat(text).matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}[+-]\\d{4} \\[[^\\]]+\\] INFO "
                + "Hexaflow - a text line\\R");
        JsonNode line = new ObjectMapper().readTree(json);
        assertThat(json.strip()).doesNotContain("\n");
        assertThat(line.get("level").asText()).isEqualTo("WARN");
        assertThat(line.get("loggerName").asText()).isEqualTo(Hexaflow.class.getName());
        assertThat(line.get("formattedMessage").asText()).isEqualTo("a json line");
        assertThat(line.get("timestamp").asLong()).isPositive();
        assertThat(line.get("threadName").asText()).isNotEmpty();
        assertThat(line.get("kvpList").get(0).get("app_id").asText()).isEqualTo("app-1");
        assertThat(textAgain).contains("INFO Hexaflow - text again");
    }

    @Test
    void theLevelsAreInfoWithTheLibrariesAtWarn() {
        LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();

        assertThat(context.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME).getLevel()).isEqualTo(Level.INFO);
        for (String library : List.of("org.eclipse.jetty", "org.flywaydb", "io.javalin", "com.zaxxer.hikari")) {
            assertThat(context.getLogger(library + ".any").getEffectiveLevel()).as(library).isEqualTo(Level.WARN);
        }
        assertThat(context.getLogger("com.zaxxer.hikari.pool.ProxyConnection").getEffectiveLevel())
                .isEqualTo(Level.ERROR);
        assertThat(context.getLogger("dev.hexaflow.runs").getEffectiveLevel()).isEqualTo(Level.INFO);
    }

    @Test
    void anOperatorsOwnLogbackFileReplacesTheSetUpAndOneThatIsNotThereDoesNot(@TempDir Path folder)
            throws Exception {
        Path own = Files.writeString(folder.resolve("own-logback.xml"), "<configuration/>");
        LoggerContext replaced = new LoggerContext();
        LoggerContext kept = new LoggerContext();

        Configurator.ExecutionStatus withOwn = configuredWith(own.toString(), replaced);
        Configurator.ExecutionStatus withMissing = configuredWith(folder.resolve("missing.xml").toString(), kept);

        assertThat(withOwn).isEqualTo(Configurator.ExecutionStatus.INVOKE_NEXT_IF_ANY);
        assertThat(replaced.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME).getAppender(LogOutput.APPENDER)).isNull();
        assertThat(replaced.getProperty(LogOutput.TEXT_PATTERN)).isNull();
        assertThat(configuredWith(own.toUri().toString(), new LoggerContext())).as("as a file: URL")
                .isEqualTo(Configurator.ExecutionStatus.INVOKE_NEXT_IF_ANY);
        assertThat(withMissing).isEqualTo(Configurator.ExecutionStatus.DO_NOT_INVOKE_NEXT_IF_ANY);
        assertThat(kept.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME).getAppender(LogOutput.APPENDER)).isNotNull();
        assertThat(kept.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME).getLevel()).isEqualTo(Level.INFO);
    }

    private static Configurator.ExecutionStatus configuredWith(String ownFile, LoggerContext context) {
        String before = System.getProperty(LogSetup.OWN_FILE);
        System.setProperty(LogSetup.OWN_FILE, ownFile);
        try {
            LogSetup setup = new LogSetup();
            setup.setContext(context);
            return setup.configure(context);
        } finally {
            if (before == null) {
                System.clearProperty(LogSetup.OWN_FILE);
            } else {
                System.setProperty(LogSetup.OWN_FILE, before);
            }
        }
    }

    @Test
    void aBadLogSettingStopsTheStartWithOneLineNamingIt() {
        for (Map.Entry<String, String> bad : Map.of("HEXAFLOW_LOG_FORMAT", "xml", "HEXAFLOW_REQUEST_LOG", "yes")
                .entrySet()) {
            ByteArrayOutputStream err = new ByteArrayOutputStream();
            int exit = Main.run(new String[] {"serve"}, Map.of(bad.getKey(), bad.getValue()),
                    new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
                    new PrintStream(err, true, StandardCharsets.UTF_8));

            assertThat(exit).isEqualTo(Main.USAGE);
            assertThat(err.toString(StandardCharsets.UTF_8)).startsWith("hexaflow: " + bad.getKey() + " takes ")
                    .contains("'" + bad.getValue() + "'").hasLineCount(1);
        }
    }

    /** What the server's appender wrote to standard error while {@code logging} ran. */
    private static String written(Runnable logging) {
        PrintStream before = System.err;
        ByteArrayOutputStream copy = new ByteArrayOutputStream();
        System.setErr(new PrintStream(copy, true, StandardCharsets.UTF_8));
        try {
            logging.run();
        } finally {
            System.setErr(before);
        }
        return copy.toString(StandardCharsets.UTF_8);
    }
}
