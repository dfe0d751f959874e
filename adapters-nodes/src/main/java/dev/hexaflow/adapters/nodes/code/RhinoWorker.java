package dev.hexaflow.adapters.nodes.code;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.mozilla.javascript.Context;
import org.mozilla.javascript.ContextFactory;
import org.mozilla.javascript.Function;
import org.mozilla.javascript.NativeJSON;
import org.mozilla.javascript.RhinoException;
import org.mozilla.javascript.ScriptRuntime;
import org.mozilla.javascript.Scriptable;

/**
 * The worker process behind {@link RhinoCodeRunner}: reads one JSON request a line on standard input
 * ({@code code}, {@code inputs}, {@code budget_ms}: the code's time, from when the worker reads it) and writes one JSON answer a line on
 * standard output ({@code {"ok": result}} or {@code {"error": message}}). Each call gets a fresh scope, so a call
 * sees nothing an earlier one left. The process's heap is the code's memory limit (it is started with
 * {@code -Xmx} and exits on an OutOfMemoryError); it ends when its standard input closes (the server is gone) or
 * after a while without calls.
 *
 * <p>Arguments: the timeout in seconds (for the message), the largest result in characters, and the idle time in
 * milliseconds after which the worker ends.
 */
public final class RhinoWorker {

    private static final int CHECK_EVERY_INSTRUCTIONS = 10_000;

    private final long timeoutSeconds;
    private final int maxResultChars;
    private final LimitedFactory factory = new LimitedFactory();

    private RhinoWorker(long timeoutSeconds, int maxResultChars) {
        this.timeoutSeconds = timeoutSeconds;
        this.maxResultChars = maxResultChars;
    }

    /** The line a worker writes once it can take calls, before any answer. */
    public static final String READY = "{\"ready\": true}";

    public static void main(String[] args) throws IOException, InterruptedException {
        RhinoWorker worker = new RhinoWorker(Long.parseLong(args[0]), Integer.parseInt(args[1]));
        long idleMillis = Long.parseLong(args[2]);
        Writer answers = new BufferedWriter(new OutputStreamWriter(new FileOutputStream(FileDescriptor.out),
                StandardCharsets.UTF_8), 1 << 16);
        // Only answers go to standard output: anything else printed would be read as one.
        System.setOut(System.err);
        BlockingQueue<String> requests = new LinkedBlockingQueue<>();
        Thread reader = new Thread(() -> read(requests), "hexaflow-js-requests");
        reader.setDaemon(true);
        reader.start();
        // Up, with Rhino loaded: the runner starts a call's clock from here, not from the JVM's launch.
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
     * Reads requests on a thread of its own so that the worker ends as soon as the server closes its end, even
     * in the middle of a call that the observer cannot reach (a built-in running in Java).
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
            String json = factory.call(cx -> call(cx, request));
            if (json == null) {
                return error("main must return an object, it returned undefined");
            }
            if (json.length() > maxResultChars) {
                return error("the result of main is larger than " + maxResultChars + " characters");
            }
            return "{\"ok\":" + json + "}";
        } catch (Failure e) {
            return error(e.getMessage());
        } catch (StackOverflowError e) {
            return error("RangeError: Maximum call stack size exceeded");
        } catch (RuntimeException e) {
            return error("the javascript engine failed: " + e);
        }
    }

    private String call(Context cx, String request) {
        Scriptable scope = cx.initSafeStandardObjects();
        factory.deadline = Long.MAX_VALUE;
        Scriptable call = (Scriptable) NativeJSON.parse(cx, scope, request, (c, s, t, a) -> a[1]);
        // The code's time starts as this worker reads it: a worker still starting its JVM costs the code nothing.
        long budgetMillis = (long) ScriptRuntime.toNumber(call.get("budget_ms", call));
        factory.deadline = System.nanoTime() + budgetMillis * 1_000_000;
        String code = ScriptRuntime.toString(call.get("code", call));
        Object inputs = call.get("inputs", call);
        try {
            cx.evaluateString(scope, code, "main.js", 1, null);
            Object main = scope.get("main", scope);
            if (!(main instanceof Function function)) {
                throw new Failure("ReferenceError: main is not defined");
            }
            Object result = function.call(cx, scope, scope, new Object[] {inputs});
            Object json = NativeJSON.stringify(cx, scope, result, null, null);
            return json instanceof String text ? text : null;
        } catch (LimitExceeded e) {
            throw new Failure("Code execution timed out after " + timeoutSeconds + "s");
        } catch (RhinoException e) {
            throw new Failure(e.getClass().getSimpleName().replace("Ecma", "") + ": " + e.details()
                    + " (line " + e.lineNumber() + ")");
        } finally {
            factory.deadline = Long.MAX_VALUE;
        }
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

    /** A failure of the code, answered as its message. */
    private static final class Failure extends RuntimeException {
        Failure(String message) {
            super(message, null, false, false);
        }
    }

    /** Thrown from the observer to unwind the script; an Error, so script catch blocks cannot swallow it. */
    private static final class LimitExceeded extends Error {
        LimitExceeded() {
            super("timed out", null, false, false);
        }
    }

    /**
     * Interpreted mode with an instruction observer, so that a plain loop ends at its deadline and the worker
     * lives on; no Java class is reachable (a class shutter refuses every one), so no file, network, process or
     * environment either.
     */
    private static final class LimitedFactory extends ContextFactory {
        long deadline = Long.MAX_VALUE;

        @Override
        protected Context makeContext() {
            Context cx = super.makeContext();
            cx.setLanguageVersion(Context.VERSION_ES6);
            cx.setInterpretedMode(true);
            cx.setInstructionObserverThreshold(CHECK_EVERY_INSTRUCTIONS);
            cx.setClassShutter(className -> false);
            cx.setMaximumInterpreterStackDepth(2_000);
            return cx;
        }

        @Override
        protected void observeInstructionCount(Context cx, int instructionCount) {
            if (System.nanoTime() > deadline) {
                throw new LimitExceeded();
            }
        }
    }
}
