package dev.hexaflow.adapters.nodes.code;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.graalvm.polyglot.Context;
import org.graalvm.polyglot.Engine;
import org.graalvm.polyglot.EnvironmentAccess;
import org.graalvm.polyglot.HostAccess;
import org.graalvm.polyglot.PolyglotAccess;
import org.graalvm.polyglot.PolyglotException;
import org.graalvm.polyglot.Source;
import org.graalvm.polyglot.Value;

/**
 * The worker process behind {@link GraalJsCodeRunner}: reads one JSON request a line on standard input
 * ({@code code}, {@code inputs}, {@code budget_ms}: the code's time, from when the worker reads it) and writes one
 * JSON answer a line on standard output ({@code {"ok": result}} or {@code {"error": message}}). Each call gets a
 * fresh context, so a call sees nothing an earlier one left; the engine (its parsed built-ins) is shared. The
 * process's heap is the code's memory limit (it is started with {@code -Xmx} and exits on an OutOfMemoryError); it
 * ends when its standard input closes (the server is gone) or after a while without calls.
 *
 * <p>Arguments: the timeout in seconds (for the message), the largest result in characters, and the idle time in
 * milliseconds after which the worker ends.
 */
public final class GraalJsWorker {

    /** The line a worker writes once it can take calls, before any answer. */
    public static final String READY = "{\"ready\": true}";

    /** Called as Dify's runner calls it: {@code JSON.stringify(main(inputs))}, a promise not awaited. */
    private static final Source CALL = Source.create("js",
            "(function (inputs) { return JSON.stringify(main(JSON.parse(inputs))); })");
    private static final ObjectMapper JSON = new ObjectMapper();

    private final long timeoutSeconds;
    private final int maxResultChars;
    private final Engine engine = Engine.newBuilder("js")
            // A stock JDK has no Graal compiler: the interpreter is expected, its warning is not news.
            .option("engine.WarnInterpreterOnly", "false")
            .out(OutputStream.nullOutputStream())
            .err(OutputStream.nullOutputStream())
            .build();
    private final ScheduledExecutorService watchdog = Executors.newSingleThreadScheduledExecutor(task -> {
        Thread thread = new Thread(task, "hexaflow-js-watchdog");
        thread.setDaemon(true);
        return thread;
    });

    private GraalJsWorker(long timeoutSeconds, int maxResultChars) {
        this.timeoutSeconds = timeoutSeconds;
        this.maxResultChars = maxResultChars;
    }

    public static void main(String[] args) throws IOException, InterruptedException {
        GraalJsWorker worker = new GraalJsWorker(Long.parseLong(args[0]), Integer.parseInt(args[1]));
        long idleMillis = Long.parseLong(args[2]);
        Writer answers = new BufferedWriter(new OutputStreamWriter(new FileOutputStream(FileDescriptor.out),
                StandardCharsets.UTF_8), 1 << 16);
        // Only answers go to standard output: anything else printed would be read as one.
        System.setOut(System.err);
        BlockingQueue<String> requests = new LinkedBlockingQueue<>();
        Thread reader = new Thread(() -> read(requests), "hexaflow-js-requests");
        reader.setDaemon(true);
        reader.start();
        // Up, with GraalJS loaded: the runner starts a call's clock from here, not from the JVM's launch.
        worker.answer("{\"code\": \"function main() { return {}; }\", \"inputs\": {}, \"budget_ms\": 60000}");
        answers.write(READY);
        answers.write('\n');
        answers.flush();
        while (true) {
            String request = requests.poll(idleMillis, TimeUnit.MILLISECONDS);
            if (request == null) {
                Runtime.getRuntime().halt(0);
            }
            answers.write(worker.answer(request));
            answers.write('\n');
            answers.flush();
        }
    }

    /**
     * Reads requests on a thread of its own so that the worker ends as soon as the server closes its end, even in
     * the middle of a call.
     */
    private static void read(BlockingQueue<String> requests) {
        try (BufferedReader in = new BufferedReader(new InputStreamReader(new FileInputStream(FileDescriptor.in),
                StandardCharsets.UTF_8), 1 << 16)) {
            String line;
            while ((line = in.readLine()) != null) {
                requests.add(line);
            }
        } catch (IOException e) {
            // The server's end is gone: so is the reason to live.
        }
        Runtime.getRuntime().halt(0);
    }

    String answer(String request) {
        try {
            JsonNode call = JSON.readTree(request);
            String json = call(call.path("code").asText(), call.path("inputs").toString(),
                    call.path("budget_ms").asLong(60_000));
            if (json == null) {
                return error("main must return an object, it returned undefined");
            }
            if (json.length() > maxResultChars) {
                return error("the result of main is larger than " + maxResultChars + " characters");
            }
            return "{\"ok\":" + json + "}";
        } catch (PolyglotException e) {
            return error(message(e));
        } catch (IOException | RuntimeException e) {
            return error("the javascript engine failed: " + e.getClass().getSimpleName());
        }
    }

    /** Runs the code in a fresh context that the watchdog cancels at the deadline: main's result as JSON, or null. */
    private String call(String code, String inputs, long budgetMillis) {
        Context context = sandbox();
        ScheduledFuture<?> deadline = watchdog.schedule(() -> context.close(true), budgetMillis,
                TimeUnit.MILLISECONDS);
        try {
            context.eval(Source.newBuilder("js", code, "main.js").buildLiteral());
            Value result = context.eval(CALL).execute(inputs);
            return result.isString() ? result.asString() : null;
        } finally {
            deadline.cancel(false);
            try {
                context.close();
            } catch (PolyglotException | IllegalStateException e) {
                // Cancelled by the watchdog: closed already.
            }
        }
    }

    /**
     * JavaScript's standard objects only: no host class, no Java object, no file, no thread, no process, no
     * native code, no environment, no other language; no {@code load}, {@code print}, {@code Java} or
     * {@code Packages}. Nothing printed reaches the answers.
     */
    private Context sandbox() {
        return Context.newBuilder("js")
                .engine(engine)
                .allowHostAccess(HostAccess.NONE)
                .allowHostClassLookup(className -> false)
                .allowIO(false)
                .allowCreateThread(false)
                .allowCreateProcess(false)
                .allowNativeAccess(false)
                .allowEnvironmentAccess(EnvironmentAccess.NONE)
                .allowPolyglotAccess(PolyglotAccess.NONE)
                .allowExperimentalOptions(true)
                .option("js.ecmascript-version", "2023")
                .option("js.load", "false")
                .option("js.print", "false")
                .option("js.java-package-globals", "false")
                .option("js.graal-builtin", "false")
                .option("js.polyglot-builtin", "false")
                .build();
    }

    private String message(PolyglotException e) {
        if (e.isCancelled()) {
            return "Code execution timed out after " + timeoutSeconds + "s";
        }
        if (e.isResourceExhausted()) {
            return "RangeError: Maximum call stack size exceeded";
        }
        if (e.isGuestException() || e.isSyntaxError()) {
            String message = e.getMessage() == null ? "Error" : e.getMessage();
            // A line in the code node's own source, not in the call around it.
            boolean inCode = e.getSourceLocation() != null && "main.js".equals(e.getSourceLocation().getSource()
                    .getName());
            return !inCode || message.contains("main.js:") ? message
                    : message + " (line " + e.getSourceLocation().getStartLine() + ")";
        }
        return "the javascript engine failed";
    }

    private String error(String message) {
        String bounded = message.length() > maxResultChars ? message.substring(0, maxResultChars) + "..." : message;
        return "{\"error\":" + quote(bounded) + "}";
    }

    static String quote(String text) {
        StringBuilder quoted = new StringBuilder(text.length() + 2).append('"');
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '"' -> quoted.append("\\\"");
                case '\\' -> quoted.append("\\\\");
                case '\n' -> quoted.append("\\n");
                case '\r' -> quoted.append("\\r");
                case '\t' -> quoted.append("\\t");
                default -> {
                    if (c < 0x20 || Character.isSurrogate(c) || c == '\u2028' || c == '\u2029') {
                        quoted.append(String.format("\\u%04x", (int) c));
                    } else {
                        quoted.append(c);
                    }
                }
            }
        }
        return quoted.append('"').toString();
    }
}
