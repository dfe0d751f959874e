package dev.hexaflow.adapters.nodes.code;

import dev.hexaflow.workflow.engine.StopSignal;
import dev.hexaflow.workflow.port.out.CodeRunner;
import java.io.BufferedWriter;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Reader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * JavaScript code nodes on GraalJS (ECMAScript 2023, as Dify's Node.js sandbox runs them), called as Dify calls
 * them: {@code main(inputs)} with one object, its result through {@code JSON.stringify}. The code runs in worker
 * JVMs ({@link GraalJsWorker}), not in the server's: only a process can be ended at any point (a built-in running
 * in Java included) and bounded in memory without the server's heap at stake. A call that passes its timeout, whose
 * run is stopped, that runs out of memory, or whose answer is over the size limit, kills its worker (the worker's
 * own watchdog cancels a plain loop first and the worker lives on); workers are reused otherwise, and each call gets
 * a fresh context inside its worker. Inside, the context has only JavaScript's standard objects: no Java class or
 * object is reachable, and no file, thread, process, native code, environment or network. On JDK 22 and later a
 * worker runs GraalJS 25 rather than the server's GraalJS 23.1 ({@link GraalJsClassPath}).
 *
 * <p>At most {@code maxWorkers} calls run at once; a call beyond waits for a worker, and the wait counts toward
 * its timeout. Workers end with the server (a shutdown hook, and a worker ends when its standard input closes)
 * and after five minutes without a call.
 */
public final class GraalJsCodeRunner implements CodeRunner, AutoCloseable {

    /** The time a worker gets past the deadline to answer with its own message before it is killed. */
    private static final long GRACE_NANOS = TimeUnit.MILLISECONDS.toNanos(250);
    /**
     * How long a new worker may take to start its JVM and load GraalJS before it is given up: about four seconds
     * here, but over thirty on a 2-core machine with a load of 30, and a run's own time limit still bounds the whole.
     */
    private static final long STARTING_NANOS = TimeUnit.SECONDS.toNanos(90);
    /** A worker ends itself after this long without a call; the runner does not hand out one close to it. */
    private static final long IDLE_MILLIS = TimeUnit.MINUTES.toMillis(5);
    private static final long IDLE_REUSE_NANOS = TimeUnit.MILLISECONDS.toNanos(IDLE_MILLIS - 30_000);
    /** HotSpot's exit status after an OutOfMemoryError under -XX:+ExitOnOutOfMemoryError. */
    private static final int OUT_OF_MEMORY_EXIT = 3;

    private final CodeLimits limits;
    private final int maxWorkers;
    private final String java;
    private final int jdkFeature;
    /** Made by the first worker's start: on JDK 22 and later it copies GraalJS 25's jars (GraalJsClassPath). */
    private GraalJsClassPath classPath;
    private final Semaphore slots;
    private final ConcurrentLinkedDeque<Worker> idle = new ConcurrentLinkedDeque<>();
    private final Set<Worker> all = ConcurrentHashMap.newKeySet();
    private volatile boolean closed;

    /** As many workers at once as this machine has processors, at least two. */
    public GraalJsCodeRunner(CodeLimits limits) {
        this(limits, Math.max(2, Runtime.getRuntime().availableProcessors()));
    }

    public GraalJsCodeRunner(CodeLimits limits, int maxWorkers) {
        this(limits, maxWorkers, Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                Runtime.version().feature());
    }

    /** Workers on the JVM {@code java} of JDK {@code jdkFeature} (17, 25, ...) rather than on this server's. */
    GraalJsCodeRunner(CodeLimits limits, int maxWorkers, String java, int jdkFeature) {
        if (maxWorkers < 1) {
            throw new IllegalArgumentException("maxWorkers must be at least 1");
        }
        this.limits = limits;
        this.maxWorkers = maxWorkers;
        this.slots = new Semaphore(maxWorkers, true);
        this.java = java;
        this.jdkFeature = jdkFeature;
        Runtime.getRuntime().addShutdownHook(new Thread(this::close, "hexaflow-js-workers"));
    }

    /** The worker's command line, its class path set up by the first call. */
    private synchronized List<String> command() {
        if (closed) {
            throw new CodeException("the javascript runner is closed");
        }
        try {
            classPath = GraalJsClassPath.renewed(classPath, jdkFeature);
        } catch (RuntimeException e) {
            throw new CodeException("cannot start a javascript worker: " + e.getMessage(), e);
        }
        List<String> command = new ArrayList<>(List.of(java,
                "-Xmx" + limits.memoryBytes() / 1024 + "k",
                "-Xss8m",
                "-XX:+UseSerialGC",
                // Big arrays and strings go straight to the old generation: a runaway allocator meets the heap
                // limit without their being copied between generations first.
                "-XX:PretenureSizeThreshold=64k",
                // C1 only: C2 compiling Truffle's interpreter tripled a worker's start and slowed calls of new code.
                "-XX:TieredStopAtLevel=1",
                "-XX:+ExitOnOutOfMemoryError",
                "-XX:+DisplayVMOutputToStderr",
                "-XX:-UsePerfData",
                "-XX:MaxMetaspaceSize=256m"));
        command.addAll(classPath.options());
        command.addAll(List.of("-cp", classPath.asArgument(),
                GraalJsWorker.class.getName(),
                Long.toString(limits.timeout().toSeconds()),
                Integer.toString(limits.maxResultChars()),
                Long.toString(IDLE_MILLIS)));
        return command;
    }

    @Override
    public String language() {
        return "javascript";
    }

    @Override
    public Map<String, Object> run(String code, Map<String, Object> inputs, StopSignal stop) {
        long deadline = System.nanoTime() + limits.timeout().toNanos();
        Map<String, Object> request = new LinkedHashMap<>();
        request.put("budget_ms", limits.timeout().toMillis());
        request.put("code", code);
        request.put("inputs", inputs);
        String line = JsonValues.write(request);
        if (stop.isStopped()) {
            throw stopped();
        }
        waitForSlot(deadline, stop);
        Worker worker = null;
        boolean reusable = false;
        try {
            worker = take();
            Reply reply;
            try (StopHandle ignored = new StopHandle(stop.onStop(worker::kill))) {
                // The code's time counts from when the worker is up (it keeps its own deadline from when it reads
                // the call): a worker's JVM starting is no part of it.
                reply = worker.awaitReady() ? worker.call(line, System.nanoTime() + limits.timeout().toNanos()
                        + GRACE_NANOS) : Reply.ENDED;
            }
            if (reply.kind() != Reply.Kind.LINE && stop.isStopped()) {
                throw stopped();
            }
            Map<String, Object> answer = switch (reply.kind()) {
                case LINE -> JsonValues.object(JsonValues.read(reply.line()), "the javascript worker");
                case LATE -> throw timedOut();
                case TOO_LARGE -> throw new CodeException("the result of main is larger than "
                        + limits.maxResultChars() + " characters");
                case ENDED -> throw worker.exitStatus() == OUT_OF_MEMORY_EXIT ? outOfMemory()
                        : new CodeException("the javascript worker ended unexpectedly" + worker.lastError());
            };
            reusable = true;
            if (answer.containsKey("error")) {
                throw new CodeException(String.valueOf(answer.get("error")));
            }
            return JsonValues.object(answer.get("ok"), "main");
        } finally {
            if (worker != null) {
                if (reusable && !closed && worker.process.isAlive()) {
                    worker.idleSince = System.nanoTime();
                    idle.addFirst(worker);
                } else {
                    worker.kill();
                    keepOneReady();
                }
            }
            slots.release();
        }
    }

    private CodeException timedOut() {
        return new CodeException("Code execution timed out after " + limits.timeout().toSeconds() + "s");
    }

    private static CodeException stopped() {
        return new CodeException("the run was stopped");
    }

    private CodeException outOfMemory() {
        return new CodeException("Code used more than " + limits.memoryBytes() / (1024 * 1024) + " MiB of memory");
    }

    /** Waits for one of the {@code maxWorkers} slots, as long as the call's time lasts and its run is not stopped. */
    private void waitForSlot(long deadline, StopSignal stop) {
        try {
            while (!slots.tryAcquire(Math.min(50_000_000L, Math.max(0, deadline - System.nanoTime())),
                    TimeUnit.NANOSECONDS)) {
                if (stop.isStopped()) {
                    throw stopped();
                }
                if (System.nanoTime() >= deadline) {
                    throw timedOut();
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw stopped();
        }
    }

    /** An idle worker that will not end itself soon, or a new one (its JVM starts while the request waits). */
    private Worker take() {
        Worker worker;
        while ((worker = idle.pollFirst()) != null) {
            if (worker.process.isAlive() && System.nanoTime() - worker.idleSince < IDLE_REUSE_NANOS) {
                return worker;
            }
            worker.kill();
        }
        return start();
    }

    /** Starts a worker in place of a killed one, so that the next call does not wait for a JVM to start. */
    private void keepOneReady() {
        if (!closed && idle.isEmpty() && all.size() < maxWorkers) {
            try {
                idle.addFirst(start());
            } catch (CodeException e) {
                // The next call starts one and says why it cannot.
            }
        }
    }

    private Worker start() {
        if (closed) {
            throw new CodeException("the javascript runner is closed");
        }
        ProcessBuilder builder = new ProcessBuilder(command())
                .directory(new File(System.getProperty("java.io.tmpdir")));
        builder.environment().clear();
        try {
            Worker worker = new Worker(builder.start());
            all.add(worker);
            return worker;
        } catch (IOException e) {
            throw new CodeException("cannot start a javascript worker: " + e.getMessage(), e);
        }
    }

    /** Ends every worker; calls after this fail. */
    @Override
    public void close() {
        closed = true;
        for (Worker worker : List.copyOf(all)) {
            worker.kill();
        }
        synchronized (this) {
            if (classPath != null) {
                classPath.close();
            }
        }
    }

    /** The number of worker processes alive now (idle or busy), for tests and diagnostics. */
    public int workers() {
        return (int) all.stream().filter(worker -> worker.process.isAlive()).count();
    }

    /** How a call to a worker ended: an answer line, the deadline, an answer over the limit, or the worker's end. */
    private record Reply(Kind kind, String line) {
        enum Kind { LINE, LATE, TOO_LARGE, ENDED }

        static final Reply LATE = new Reply(Kind.LATE, null);
        static final Reply TOO_LARGE = new Reply(Kind.TOO_LARGE, null);
        static final Reply ENDED = new Reply(Kind.ENDED, null);
    }

    /** Closes a stop registration without a checked exception. */
    private record StopHandle(AutoCloseable registration) implements AutoCloseable {
        @Override
        public void close() {
            try {
                registration.close();
            } catch (Exception e) {
                throw new IllegalStateException("cannot unregister from the stop signal", e);
            }
        }
    }

    private final class Worker {
        final Process process;
        /** Counted down when the worker says it is up ({@link GraalJsWorker#READY}). */
        private final java.util.concurrent.CountDownLatch ready = new java.util.concurrent.CountDownLatch(1);
        private final Writer requests;
        private final BlockingQueue<Reply> replies = new LinkedBlockingQueue<>();
        private final PrintedTail errors;
        volatile long idleSince = System.nanoTime();
        private final long started = System.nanoTime();

        Worker(Process process) {
            this.process = process;
            this.requests = new BufferedWriter(new OutputStreamWriter(process.getOutputStream(),
                    StandardCharsets.UTF_8), 1 << 16);
            Thread answers = new Thread(() -> readAnswers(process.getInputStream()), "hexaflow-js-answers");
            answers.setDaemon(true);
            answers.start();
            this.errors = PrintedTail.of(process.getErrorStream(), "hexaflow-js-stderr");
        }

        /** Waits until the worker is up, or {@link #STARTING_NANOS} have passed, or it ended: whether it is up. */
        boolean awaitReady() {
            try {
                while (!ready.await(50, TimeUnit.MILLISECONDS)) {
                    if (!process.isAlive() || System.nanoTime() - started > STARTING_NANOS) {
                        return false;
                    }
                }
                return true;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }

        Reply call(String request, long deadline) {
            try {
                requests.write(request);
                requests.write('\n');
                requests.flush();
                Reply reply = replies.poll(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
                return reply == null ? Reply.LATE : reply;
            } catch (IOException e) {
                return Reply.ENDED;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return Reply.ENDED;
            }
        }

        /** Reads answer lines; a line longer than a result may be ends the worker rather than fill this heap. */
        private void readAnswers(InputStream stdout) {
            int limit = limits.maxResultChars() + 64;
            StringBuilder line = new StringBuilder();
            char[] buffer = new char[8192];
            try (Reader in = new InputStreamReader(stdout, StandardCharsets.UTF_8)) {
                int n;
                while ((n = in.read(buffer)) >= 0) {
                    int from = 0;
                    for (int i = 0; i < n; i++) {
                        if (buffer[i] == '\n') {
                            line.append(buffer, from, i - from);
                            if (ready.getCount() > 0 && line.toString().equals(GraalJsWorker.READY)) {
                                ready.countDown();
                                line.setLength(0);
                                from = i + 1;
                                continue;
                            }
                            replies.add(new Reply(Reply.Kind.LINE, line.toString()));
                            line.setLength(0);
                            from = i + 1;
                        }
                    }
                    line.append(buffer, from, n - from);
                    if (line.length() > limit) {
                        replies.add(Reply.TOO_LARGE);
                        kill();
                        return;
                    }
                }
            } catch (IOException e) {
                // Read below as the worker's end.
            }
            replies.add(Reply.ENDED);
        }

        int exitStatus() {
            try {
                // Its output closed: it is exiting, which a loaded machine may take seconds over.
                return process.waitFor(10, TimeUnit.SECONDS) ? process.exitValue() : -1;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return -1;
            }
        }

        String lastError() {
            String printed = errors.lastLine();
            return printed.isEmpty() ? "" : ": " + printed;
        }

        void kill() {
            process.destroyForcibly();
            all.remove(this);
            idle.remove(this);
        }
    }
}
