package dev.hexaflow.adapters.nodes.code;

import dev.hexaflow.application.workflow.port.out.CodeRunner;
import dev.hexaflow.application.workflow.engine.StopSignal;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Python code nodes in python3 worker processes that speak JSON lines, started on demand and reused between calls
 * (a call takes an idle worker or starts one). A worker runs with an empty environment in a scratch directory and
 * an address-space limit; a call that passes its time, writes a result over the size limit, or whose run is
 * stopped, kills its worker. This bounds runaway code; it is not a security sandbox: the code runs as the
 * server's user and can read what that user can.
 */
public final class PythonWorkerCodeRunner implements CodeRunner, AutoCloseable {

    private static final String SCRIPT = script();

    private final String python;
    private final CodeLimits limits;
    private final Path scratch;
    private final ConcurrentLinkedDeque<Worker> idle = new ConcurrentLinkedDeque<>();
    private final Set<Worker> all = ConcurrentHashMap.newKeySet();

    public PythonWorkerCodeRunner(String python, CodeLimits limits) {
        this.python = python;
        this.limits = limits;
        try {
            this.scratch = Files.createTempDirectory("hexaflow-python");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot make a scratch directory for python workers", e);
        }
        Runtime.getRuntime().addShutdownHook(new Thread(this::close, "hexaflow-python-workers"));
    }

    /** Finds {@code name} on this process's PATH, so that workers need no PATH lookup of their own. */
    public static String locate(String name) {
        if (name.contains("/")) {
            return name;
        }
        String path = System.getenv("PATH");
        if (path != null) {
            for (String dir : path.split(java.io.File.pathSeparator)) {
                Path candidate = Path.of(dir, name);
                if (Files.isExecutable(candidate)) {
                    return candidate.toString();
                }
            }
        }
        return name;
    }

    @Override
    public String language() {
        return "python3";
    }

    @Override
    public Map<String, Object> run(String code, Map<String, Object> inputs, StopSignal stop) {
        Worker worker = idle.pollFirst();
        if (worker == null || !worker.process.isAlive()) {
            worker = start();
        }
        boolean reusable = false;
        try (AutoCloseable onStop = stop.onStop(worker::kill)) {
            Map<String, Object> request = new LinkedHashMap<>();
            request.put("code", code);
            request.put("inputs", inputs);
            String answer = worker.call(JsonValues.write(request));
            Map<String, Object> reply = JsonValues.object(JsonValues.read(answer), "the worker");
            reusable = true;
            if (reply.containsKey("error")) {
                throw new CodeException(String.valueOf(reply.get("error")));
            }
            return JsonValues.object(reply.get("ok"), "main");
        } catch (CodeException e) {
            if (stop.isStopped()) {
                throw new CodeException("the run was stopped", e);
            }
            throw e;
        } catch (Exception e) {
            throw new CodeException("the python worker failed: " + e.getMessage(), e);
        } finally {
            if (reusable && worker.process.isAlive()) {
                idle.addFirst(worker);
            } else {
                worker.kill();
            }
        }
    }

    private Worker start() {
        ProcessBuilder builder = new ProcessBuilder(python, "-u", "-I", "-c", SCRIPT).directory(scratch.toFile());
        builder.environment().clear();
        builder.environment().put("PATH", "/usr/local/bin:/usr/bin:/bin");
        builder.environment().put("HOME", scratch.toString());
        builder.environment().put("PYTHONIOENCODING", "utf-8");
        builder.environment().put("HEXAFLOW_PYTHON_MEMORY_BYTES", Long.toString(limits.memoryBytes()));
        try {
            Worker worker = new Worker(builder.start());
            all.add(worker);
            return worker;
        } catch (IOException e) {
            throw new CodeException("python3 is not available on this server (" + python + "): " + e.getMessage()
                    + ". Install python3 to run python code nodes.", e);
        }
    }

    @Override
    public void close() {
        for (Worker worker : List.copyOf(all)) {
            worker.kill();
        }
    }

    private final class Worker {
        final Process process;
        private final BufferedWriter requests;
        private final Reader answers;
        private final StringBuilder errors = new StringBuilder();

        Worker(Process process) {
            this.process = process;
            this.requests = new BufferedWriter(new OutputStreamWriter(process.getOutputStream(),
                    StandardCharsets.UTF_8));
            this.answers = new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8);
            Thread drain = new Thread(() -> drain(process.getErrorStream()), "hexaflow-python-stderr");
            drain.setDaemon(true);
            drain.start();
        }

        /** Keeps the last few kilobytes of what the code printed, for the message when the worker dies. */
        private void drain(InputStream stderr) {
            byte[] buffer = new byte[4096];
            try {
                int n;
                while ((n = stderr.read(buffer)) > 0) {
                    synchronized (errors) {
                        errors.append(new String(buffer, 0, n, StandardCharsets.UTF_8));
                        if (errors.length() > 4096) {
                            errors.delete(0, errors.length() - 4096);
                        }
                    }
                }
            } catch (IOException e) {
                // The worker is gone; what it printed so far is all there is.
            }
        }

        String call(String request) throws IOException, InterruptedException {
            requests.write(request);
            requests.write('\n');
            requests.flush();
            CompletableFuture<String> line = CompletableFuture.supplyAsync(this::readLine);
            try {
                return line.get(limits.timeout().toMillis(), TimeUnit.MILLISECONDS);
            } catch (TimeoutException e) {
                kill();
                throw new CodeException("Code execution timed out after " + limits.timeout().toSeconds() + "s");
            } catch (ExecutionException e) {
                kill();
                throw e.getCause() instanceof CodeException code ? code
                        : new CodeException(String.valueOf(e.getCause().getMessage()), e.getCause());
            }
        }

        private String readLine() {
            StringBuilder line = new StringBuilder();
            try {
                int c;
                while ((c = answers.read()) >= 0) {
                    if (c == '\n') {
                        return line.toString();
                    }
                    line.append((char) c);
                    if (line.length() > limits.maxResultChars()) {
                        kill();
                        throw new CodeException("the result of main is larger than " + limits.maxResultChars()
                                + " characters");
                    }
                }
            } catch (IOException e) {
                // Read below as the worker's end.
            }
            String printed;
            synchronized (errors) {
                printed = errors.toString().strip();
            }
            throw new CodeException("the python worker ended unexpectedly"
                    + (printed.isEmpty() ? "" : ": " + printed.lines().reduce((a, b) -> b).orElse("")));
        }

        void kill() {
            process.destroyForcibly();
            all.remove(this);
            idle.remove(this);
        }
    }

    private static String script() {
        try (InputStream in = PythonWorkerCodeRunner.class.getResourceAsStream("python_worker.py")) {
            if (in == null) {
                throw new IllegalStateException("python_worker.py is missing from the jar");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
