package dev.hexaflow.adapters.nodes.code;

import dev.hexaflow.workflow.engine.StopSignal;
import dev.hexaflow.workflow.port.out.CodeRunner;
import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Python code nodes, each call in a fresh process forked from a python3 fork server (python_worker.py, which
 * says how). The fork server starts with an empty environment and never runs code; per call it forks a sandbox
 * that runs main once and exits, so no state passes from one call, or one app, to the next. The sandbox runs in
 * the strongest isolation the fork server found at start ({@link #isolation()}): its own PID, mount and IPC
 * namespaces and, when the server runs as root, a uid of its own, so that the server's processes and their
 * environment are out of its sight and every process it starts ends with the call. A call that passes its time,
 * whose answer is over the size limit, or whose run is stopped, hangs up, and the fork server kills the sandbox
 * with everything in it.
 */
public final class PythonWorkerCodeRunner implements CodeRunner, AutoCloseable {

    /** How many processes (the sandbox included) one call may have at once, where the isolation can count them. */
    public static final int DEFAULT_MAX_PROCESSES = 32;

    private static final String SCRIPT = script();
    private static final ScheduledExecutorService DEADLINES = Executors.newSingleThreadScheduledExecutor(task -> {
        Thread thread = new Thread(task, "hexaflow-python-deadlines");
        thread.setDaemon(true);
        return thread;
    });

    private final String python;
    private final CodeLimits limits;
    private final int maxProcesses;
    private final Path scratch;
    private final Path socket;
    private ForkServer server;

    public PythonWorkerCodeRunner(String python, CodeLimits limits) {
        this(python, limits, DEFAULT_MAX_PROCESSES);
    }

    public PythonWorkerCodeRunner(String python, CodeLimits limits, int maxProcesses) {
        if (maxProcesses < 1) {
            throw new IllegalArgumentException("maxProcesses must be at least 1");
        }
        this.python = python;
        this.limits = limits;
        this.maxProcesses = maxProcesses;
        try {
            this.scratch = Files.createTempDirectory("hexaflow-python");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot make a scratch directory for python code", e);
        }
        this.socket = scratch.resolve("fork-server.sock");
        Runtime.getRuntime().addShutdownHook(new Thread(this::close, "hexaflow-python-fork-server"));
    }

    /**
     * Starts the fork server in the background ahead of the first call, which would otherwise wait for python3
     * to start; without this, the first call starts it. A runner that may never run python code need not call it.
     */
    public void warmUp() {
        Thread warmUp = new Thread(this::startQuietly, "hexaflow-python-start");
        warmUp.setDaemon(true);
        warmUp.start();
    }

    private void startQuietly() {
        try {
            server();
        } catch (RuntimeException e) {
            // The first call starts it again and says why it cannot.
        }
    }

    /** Finds {@code name} on this process's PATH, so that the fork server needs no PATH lookup of its own. */
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

    /**
     * How calls are isolated on this machine, as the fork server found when it started: {@code namespaces+uid},
     * {@code namespaces}, {@code uid} or {@code process-group} (python_worker.py says what each covers).
     */
    public String isolation() {
        return server().isolation;
    }

    @Override
    public Map<String, Object> run(String code, Map<String, Object> inputs, StopSignal stop) {
        if (stop.isStopped()) {
            throw new CodeException("the run was stopped");
        }
        ForkServer forkServer = server();
        Map<String, Object> request = new LinkedHashMap<>();
        request.put("code", code);
        request.put("inputs", inputs);
        byte[] line = (JsonValues.write(request) + "\n").getBytes(StandardCharsets.UTF_8);
        AtomicReference<String> hungUp = new AtomicReference<>();
        try (SocketChannel channel = SocketChannel.open(UnixDomainSocketAddress.of(socket))) {
            Runnable timedOut = () -> hangUp(channel, hungUp, "Code execution timed out after "
                    + limits.timeout().toSeconds() + "s");
            ScheduledFuture<?> deadline = DEADLINES.schedule(timedOut, limits.timeout().toMillis(),
                    TimeUnit.MILLISECONDS);
            try (AutoCloseable onStop = stop.onStop(() -> hangUp(channel, hungUp, "the run was stopped"))) {
                ByteBuffer out = ByteBuffer.wrap(line);
                while (out.hasRemaining()) {
                    channel.write(out);
                }
                return answer(readLine(channel));
            } finally {
                deadline.cancel(false);
            }
        } catch (ClosedChannelException e) {
            String why = hungUp.get();
            throw new CodeException(why != null ? why : "the python fork server hung up", e);
        } catch (CodeException e) {
            throw e;
        } catch (Exception e) {
            if (!forkServer.process.isAlive()) {
                throw new CodeException("the python fork server ended: " + forkServer.printed(), e);
            }
            throw new CodeException("the python call failed: " + e.getMessage(), e);
        }
    }

    /** Closing the connection is how a call is ended: the fork server then kills its sandbox whole. */
    private static void hangUp(SocketChannel channel, AtomicReference<String> why, String message) {
        why.compareAndSet(null, message);
        try {
            channel.close();
        } catch (IOException e) {
            // Closed either way.
        }
    }

    private Map<String, Object> answer(String text) {
        Map<String, Object> reply = JsonValues.object(JsonValues.read(text), "the python fork server");
        if (reply.containsKey("error")) {
            throw new CodeException(String.valueOf(reply.get("error")));
        }
        if (reply.containsKey("too_large")) {
            throw tooLarge();
        }
        if (reply.containsKey("crash")) {
            String printed = String.valueOf(reply.get("crash"));
            throw new CodeException("the python code ended without an answer" + (printed.isEmpty() ? "" : ": "
                    + printed));
        }
        return JsonValues.object(reply.get("ok"), "main");
    }

    private String readLine(SocketChannel channel) throws IOException {
        long maxBytes = 4L * limits.maxResultChars() + 64;
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        ByteBuffer buffer = ByteBuffer.allocate(64 * 1024);
        while (channel.read(buffer) >= 0) {
            buffer.flip();
            while (buffer.hasRemaining()) {
                byte b = buffer.get();
                if (b == '\n') {
                    String text = line.toString(StandardCharsets.UTF_8);
                    if (text.length() > limits.maxResultChars()) {
                        throw tooLarge();
                    }
                    return text;
                }
                line.write(b);
            }
            buffer.clear();
            if (line.size() > maxBytes) {
                throw tooLarge();
            }
        }
        throw new CodeException("the python fork server hung up without an answer");
    }

    private CodeException tooLarge() {
        return new CodeException("the result of main is larger than " + limits.maxResultChars() + " characters");
    }

    private synchronized ForkServer server() {
        if (server == null || !server.process.isAlive()) {
            server = ForkServer.start(this);
        }
        return server;
    }

    @Override
    public synchronized void close() {
        if (server != null) {
            server.process.destroyForcibly();
            server = null;
        }
        try (java.util.stream.Stream<Path> left = Files.walk(scratch)) {
            for (Path path : left.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        } catch (IOException | UncheckedIOException e) {
            // A scratch directory left in the temporary directory holds nothing of a call: each had its own.
        }
    }

    /** The python3 fork server: its stdin stays open for as long as it may live; it ends when that closes. */
    private static final class ForkServer {
        final Process process;
        final String isolation;
        private final PrintedTail errors;

        private ForkServer(Process process, String isolation, PrintedTail errors) {
            this.process = process;
            this.isolation = isolation;
            this.errors = errors;
        }

        static ForkServer start(PythonWorkerCodeRunner runner) {
            Map<String, Object> config = new LinkedHashMap<>();
            config.put("socket", runner.socket.toString());
            config.put("scratch", runner.scratch.toString());
            config.put("memory_bytes", runner.limits.memoryBytes());
            config.put("max_processes", runner.maxProcesses);
            config.put("max_answer_bytes", 4L * runner.limits.maxResultChars() + 64);
            ProcessBuilder builder = new ProcessBuilder(runner.python, "-I", "-u", "-c", SCRIPT,
                    JsonValues.write(config)).directory(runner.scratch.toFile());
            builder.environment().clear();
            builder.environment().put("PATH", "/usr/local/bin:/usr/bin:/bin");
            builder.environment().put("PYTHONIOENCODING", "utf-8");
            Process process;
            try {
                Files.createDirectories(runner.scratch, java.nio.file.attribute.PosixFilePermissions.asFileAttribute(
                        java.nio.file.attribute.PosixFilePermissions.fromString("rwx------")));
                Files.deleteIfExists(runner.socket);
                process = builder.start();
            } catch (IOException e) {
                throw new CodeException("python3 is not available on this server (" + runner.python + "): "
                        + e.getMessage() + ". Install python3 to run python code nodes.", e);
            }
            PrintedTail errors = PrintedTail.of(process.getErrorStream(), "hexaflow-python-stderr");
            ScheduledFuture<?> slow = DEADLINES.schedule(process::destroyForcibly, 30, TimeUnit.SECONDS);
            try {
                String ready = new BufferedReader(new InputStreamReader(process.getInputStream(),
                        StandardCharsets.UTF_8)).readLine();
                Map<String, Object> hello = JsonValues.object(JsonValues.read(String.valueOf(ready)),
                        "the python fork server");
                return new ForkServer(process, String.valueOf(hello.get("isolation")), errors);
            } catch (IOException | CodeException e) {
                process.destroyForcibly();
                throw new CodeException("the python fork server did not start (" + runner.python + "): "
                        + new ForkServer(process, "", errors).printed(), e);
            } finally {
                slow.cancel(false);
            }
        }

        String printed() {
            String last = errors.lastLine();
            return last.isEmpty() ? "(it printed nothing)" : last;
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
