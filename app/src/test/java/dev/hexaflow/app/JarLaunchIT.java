package dev.hexaflow.app;

import static dev.hexaflow.app.TestServer.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The packaged jar as a new user meets it: started as a process, its printed curl line pasted into a shell. */
class JarLaunchIT {

    private static final Path JAR = Path.of(System.getProperty("hexaflow.jar", "target/hexaflow.jar"));
    private static final Pattern TRY_LINE = Pattern.compile("^\\s+try\\s+(curl '(http://[^/]+)(/\\S+)')$");

    @TempDir
    Path work;

    @Test
    void aFirstStartPrintsACurlLineThatShowsHolidaysAndASecondServerOnTheSameDataIsRefused() throws Exception {
        Launched server = start("--port", "0", "--data-dir", work.resolve("data").toString());
        try {
            List<String> block = readStartBlock(server);
            assertThat(block.get(0)).startsWith("Hexaflow is ready on http://127.0.0.1:");
            assertThat(block).anySatisfy(line -> assertThat(line).contains("admin token"));
            assertThat(block).anySatisfy(line -> assertThat(line).contains("campus key"));
            Matcher tryLine = block.stream().map(TRY_LINE::matcher).filter(Matcher::matches).findFirst()
                    .orElseThrow(() -> new AssertionError("no curl line in " + block));

            JsonNode holidays = json(paste(tryLine.group(1), tryLine.group(2) + tryLine.group(3)));
            assertThat(holidays.get("meta").get("status").asInt()).isEqualTo(200);
            assertThat(holidays.get("meta").get("requests").asLong()).isEqualTo(1);
            assertThat(holidays.get("data")).hasSize(205);

            Launched second = start("--port", "0", "--data-dir", work.resolve("data").toString());
            assertThat(second.process().waitFor(60, TimeUnit.SECONDS)).isTrue();
            String error = second.errors().strip();
            assertThat(second.process().exitValue()).isEqualTo(1);
            assertThat(error).contains("in use by another Hexaflow process").doesNotContain("Exception")
                    .doesNotContain("\n");

            Launched compact = start("compact", "--data-dir", work.resolve("data").toString());
            assertThat(compact.process().waitFor(60, TimeUnit.SECONDS)).isTrue();
            assertThat(compact.process().exitValue()).as("compact refuses a database a server runs on").isEqualTo(1);
            assertThat(compact.errors().strip()).contains("is in use: stop the server").doesNotContain("\n");
        } finally {
            stop(server);
        }
        assertThat(server.process().exitValue()).as("a TERM signal shuts the server down cleanly").isIn(0, 143);

        Launched again = start("--port", "0", "--data-dir", work.resolve("data").toString());
        try {
            List<String> block = readStartBlock(again);
            assertThat(block).noneSatisfy(line -> assertThat(line).contains("admin token"));
            assertThat(block).noneSatisfy(line -> assertThat(line).contains("campus key"));
        } finally {
            stop(again);
        }
    }

    @Test
    void aWrongFlagIsOneLineAndExitCode2() throws Exception {
        Launched wrong = start("--verbose");

        assertThat(wrong.process().waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(wrong.process().exitValue()).isEqualTo(2);
        assertThat(wrong.errors().strip())
                .isEqualTo("hexaflow: unknown flag --verbose (see hexaflow --help)");
    }

    @Test
    void helpIsPrintedOnStandardOutput() throws Exception {
        Launched help = start("--help");

        assertThat(help.process().waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(help.process().exitValue()).isZero();
        assertThat(new String(help.process().getInputStream().readAllBytes(), StandardCharsets.UTF_8))
                .startsWith("Usage: hexaflow");
    }

    @Test
    void theLauncherRunsTheJarAndVersionSaysWhichBuildItIs() throws Exception {
        Path launcher = Path.of("..", "bin", "hexaflow").toAbsolutePath().normalize();
        Process version = new ProcessBuilder(launcher.toString(), "--version").redirectErrorStream(true).start();

        assertThat(version.waitFor(60, TimeUnit.SECONDS)).isTrue();
        String printed = new String(version.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(version.exitValue()).as(printed).isZero();
        assertThat(printed).isEqualTo("hexaflow " + System.getProperty("hexaflow.version") + "\n");
    }

    /** A started process, its standard error kept in a file so that it never fills a pipe no one reads. */
    private record Launched(Process process, Path errorFile) {

        String errors() throws IOException {
            return Files.readString(errorFile);
        }
    }

    private Launched start(String... args) throws IOException {
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-jar", JAR.toString()));
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command).directory(work.toFile());
        builder.environment().keySet().removeIf(name -> name.startsWith("HEXAFLOW_"));
        Path errors = Files.createTempFile(work, "stderr-", ".log");
        builder.redirectError(errors.toFile());
        return new Launched(builder.start(), errors);
    }

    /**
     * Reads standard output up to the try line, as a person watching the terminal would; a server that neither
     * prints it nor ends within {@link JarServer#START_LIMIT} fails the test.
     */
    private static List<String> readStartBlock(Launched server) throws Exception {
        BufferedReader out = new BufferedReader(new InputStreamReader(server.process().getInputStream(),
                StandardCharsets.UTF_8));
        CompletableFuture<List<String>> block = CompletableFuture.supplyAsync(() -> {
            List<String> lines = new ArrayList<>();
            try {
                String line;
                while ((line = out.readLine()) != null) {
                    lines.add(line);
                    if (TRY_LINE.matcher(line).matches()) {
                        return lines;
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            throw new AssertionError("the server ended before it was ready: " + lines);
        });
        try {
            return block.get(JarServer.START_LIMIT.toSeconds(), TimeUnit.SECONDS);
        } catch (TimeoutException e) {
            server.process().destroyForcibly();
            throw new AssertionError("the server did not print its start block within " + JarServer.START_LIMIT
                    + ": " + server.errors());
        } catch (ExecutionException e) {
            throw new AssertionError(e.getCause().getMessage() + " / " + server.errors(), e.getCause());
        }
    }

    /** Runs the printed curl line in a shell where curl exists, else makes the same request. */
    private static String paste(String curlLine, String url) throws Exception {
        if (Files.isExecutable(Path.of("/usr/bin/curl")) && Files.isExecutable(Path.of("/bin/sh"))) {
            Process curl = new ProcessBuilder("/bin/sh", "-c", curlLine + " --silent --show-error --max-time 60").start();
            String body = new String(curl.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(curl.waitFor(30, TimeUnit.SECONDS)).isTrue();
            assertThat(curl.exitValue()).as("curl exit code").isZero();
            return body;
        }
        return TestServer.exchange(HttpRequest.newBuilder(URI.create(url)).GET(),
                HttpResponse.BodyHandlers.ofString()).body();
    }

    private static void stop(Launched launched) throws InterruptedException {
        Process server = launched.process();
        server.destroy();
        if (!server.waitFor(30, TimeUnit.SECONDS)) {
            server.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
    }
}
