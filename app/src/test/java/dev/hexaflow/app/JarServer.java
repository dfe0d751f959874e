package dev.hexaflow.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * The packaged jar started as a process on a data directory, as an operator starts it: no HEXAFLOW_* setting
 * but those given, standard error appended to a log, and the address and the secrets of its start block read
 * from standard output (the keys only on a first start).
 */
record JarServer(Process process, String baseUrl, String demoKey, String campusKey) {

    static final Path JAR = Path.of(System.getProperty("hexaflow.jar", "target/hexaflow.jar"));

    static JarServer start(Path data, Path log, Map<String, String> settings) throws IOException {
        return start(Path.of(System.getProperty("java.home"), "bin", "java"), data, log, settings);
    }

    /** As above, on the JVM {@code java} rather than the tests' own. */
    static JarServer start(Path java, Path data, Path log, Map<String, String> settings) throws IOException {
        ProcessBuilder builder = new ProcessBuilder(java.toString(), "-jar", JAR.toString(), "--port", "0",
                "--data-dir", data.toString());
        builder.environment().keySet().removeIf(name -> name.startsWith("HEXAFLOW_"));
        builder.environment().putAll(settings);
        builder.redirectError(ProcessBuilder.Redirect.appendTo(log.toFile()));
        Process process = builder.start();
        // Standard output is read on a thread of its own, so that a server that neither starts nor exits fails
        // the test after START_LIMIT, with its threads' stacks, instead of holding the build until CI's own limit.
        BlockingQueue<String> lines = new LinkedBlockingQueue<>();
        Thread reader = new Thread(() -> {
            try (BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(),
                    StandardCharsets.UTF_8))) {
                String line;
                while ((line = out.readLine()) != null) {
                    lines.add(line);
                }
            } catch (IOException e) {
                // The process is gone.
            } finally {
                lines.add(END);
            }
        }, "jar-server-stdout");
        reader.setDaemon(true);
        reader.start();
        String baseUrl = null;
        String demoKey = null;
        String campusKey = null;
        long deadline = System.nanoTime() + START_LIMIT.toNanos();
        while (true) {
            String line;
            try {
                line = lines.poll(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                process.destroyForcibly();
                throw new AssertionError("interrupted while the server started", e);
            }
            if (line == null) {
                String stacks = threadDump(process);
                process.destroyForcibly();
                throw new AssertionError("the server neither started nor exited within " + START_LIMIT + "; its "
                        + "threads:\n" + stacks + "\nits log:\n" + tail(log));
            }
            if (line == END) {
                break;
            }
            String text = line.strip();
            if (text.startsWith("Hexaflow is ready on ")) {
                baseUrl = text.substring("Hexaflow is ready on ".length()).strip();
            } else if (text.startsWith("campus key")) {
                campusKey = text.split("\\s+")[2];
            } else if (text.startsWith("demo app key")) {
                demoKey = text.split("\\s+")[3];
            } else if (text.startsWith("try")) {
                break;
            }
        }
        if (baseUrl == null) {
            throw new AssertionError("the server did not start: " + tail(log));
        }
        return new JarServer(process, baseUrl, demoKey, campusKey);
    }

    /** How long a start may take before the test fails: far longer than any start seen, even on a loaded machine. */
    static final Duration START_LIMIT = Duration.ofMinutes(3);

    /** Marks the end of standard output in the reader's queue. */
    private static final String END = new String("end of output");

    /** The process's threads as {@code jcmd Thread.print} gives them, or why they could not be had. */
    private static String threadDump(Process process) {
        try {
            Process jcmd = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "jcmd").toString(),
                    Long.toString(process.pid()), "Thread.print").redirectErrorStream(true).start();
            byte[] dump = jcmd.getInputStream().readAllBytes();
            jcmd.waitFor(30, TimeUnit.SECONDS);
            return new String(dump, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "(no thread dump: " + e.getMessage() + ")";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "(no thread dump: interrupted)";
        }
    }

    /** The last 20,000 characters of the log. */
    static String tail(Path log) throws IOException {
        String text = Files.exists(log) ? Files.readString(log) : "";
        return text.length() <= 20_000 ? text : text.substring(text.length() - 20_000);
    }

    /** Imports the app DSL of a test resource ({@code /apps/...}) through the admin API: its service API key. */
    String importApp(String adminToken, String resource) throws IOException {
        try (InputStream dsl = JarServer.class.getResourceAsStream(resource)) {
            HttpResponse<String> imported = TestServer.exchange(HttpRequest.newBuilder(URI.create(baseUrl
                    + "/admin/apps")).header("Authorization", "Bearer " + adminToken)
                    .header("Content-Type", "application/yaml")
                    .POST(HttpRequest.BodyPublishers.ofByteArray(dsl.readAllBytes())),
                    HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
            assertThat(imported.statusCode()).as(imported.body()).isEqualTo(201);
            return TestServer.json(imported).get("api_key").asText();
        }
    }

    /** SIGKILL, and waits for the process to be gone. */
    void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor(30, TimeUnit.SECONDS);
    }

    /** SIGTERM (a graceful stop), then SIGKILL if it takes longer than 30 s. */
    void stop() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
    }
}
