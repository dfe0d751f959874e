package dev.hexaflow.app;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The packaged jar started as a process on a data directory, as an operator starts it: no HEXAFLOW_* setting
 * but those given, standard error appended to a log, and the address and the secrets of its start block read
 * from standard output (the keys only on a first start).
 */
record JarServer(Process process, String baseUrl, String demoKey, String campusKey) {

    static final Path JAR = Path.of(System.getProperty("hexaflow.jar", "target/hexaflow.jar"));

    static JarServer start(Path data, Path log, Map<String, String> settings) throws IOException {
        ProcessBuilder builder = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java")
                .toString(), "-jar", JAR.toString(), "--port", "0", "--data-dir", data.toString());
        builder.environment().keySet().removeIf(name -> name.startsWith("HEXAFLOW_"));
        builder.environment().putAll(settings);
        builder.redirectError(ProcessBuilder.Redirect.appendTo(log.toFile()));
        Process process = builder.start();
        BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(),
                StandardCharsets.UTF_8));
        String baseUrl = null;
        String demoKey = null;
        String campusKey = null;
        String line;
        while ((line = out.readLine()) != null) {
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
            throw new AssertionError("the server did not start: " + Files.readString(log));
        }
        Thread drain = new Thread(() -> {
            try {
                out.transferTo(java.io.Writer.nullWriter());
            } catch (IOException e) {
                // The process is gone.
            }
        });
        drain.setDaemon(true);
        drain.start();
        return new JarServer(process, baseUrl, demoKey, campusKey);
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
