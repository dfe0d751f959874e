package dev.hexaflow.adapters.nodes.code;

import dev.hexaflow.application.workflow.port.out.CodeRunner;
import dev.hexaflow.application.workflow.engine.StopSignal;
import java.lang.management.ManagementFactory;
import java.util.Map;
import org.mozilla.javascript.Context;
import org.mozilla.javascript.ContextFactory;
import org.mozilla.javascript.Function;
import org.mozilla.javascript.NativeJSON;
import org.mozilla.javascript.RhinoException;
import org.mozilla.javascript.Scriptable;
import org.mozilla.javascript.Undefined;

/**
 * JavaScript code nodes on Rhino, called as Dify calls them: {@code main(inputs)} with one object. The scope has
 * only JavaScript's standard objects: no Java class is reachable (a class shutter refuses every one), so no file,
 * network, process or environment either. An instruction observer ends the run when it passes its time, when the
 * run is stopped, or when the thread has allocated more than its memory budget during the call.
 */
public final class RhinoCodeRunner implements CodeRunner {

    private static final int CHECK_EVERY_INSTRUCTIONS = 10_000;

    private final CodeLimits limits;

    public RhinoCodeRunner(CodeLimits limits) {
        this.limits = limits;
    }

    @Override
    public String language() {
        return "javascript";
    }

    @Override
    public Map<String, Object> run(String code, Map<String, Object> inputs, StopSignal stop) {
        LimitedFactory factory = new LimitedFactory(System.nanoTime() + limits.timeout().toNanos(), stop,
                allocated() + limits.memoryBytes());
        String resultJson = (String) factory.call(cx -> {
            Scriptable scope = cx.initSafeStandardObjects();
            try {
                Object parsedInputs = NativeJSON.parse(cx, scope, JsonValues.write(inputs), (c, s, t, a) -> a[1]);
                cx.evaluateString(scope, code, "main.js", 1, null);
                Object main = scope.get("main", scope);
                if (!(main instanceof Function function)) {
                    throw new CodeException("ReferenceError: main is not defined");
                }
                Object result = function.call(cx, scope, scope, new Object[] {parsedInputs});
                Object json = NativeJSON.stringify(cx, scope, result, null, null);
                return json instanceof String text ? text : null;
            } catch (LimitExceeded e) {
                throw new CodeException(e.getMessage());
            } catch (RhinoException e) {
                throw new CodeException(e.getClass().getSimpleName().replace("Ecma", "") + ": " + e.details()
                        + " (line " + e.lineNumber() + ")", e);
            }
        });
        if (resultJson == null) {
            throw new CodeException("main must return an object, it returned " + Undefined.instance);
        }
        if (resultJson.length() > limits.maxResultChars()) {
            throw new CodeException("the result of main is larger than " + limits.maxResultChars() + " characters");
        }
        return JsonValues.object(JsonValues.read(resultJson), "main");
    }

    /** Bytes this thread has allocated so far, where the JVM counts them (HotSpot does). */
    private static long allocated() {
        if (ManagementFactory.getThreadMXBean() instanceof com.sun.management.ThreadMXBean threads
                && threads.isThreadAllocatedMemorySupported() && threads.isThreadAllocatedMemoryEnabled()) {
            return threads.getThreadAllocatedBytes(Thread.currentThread().getId());
        }
        return -1;
    }

    /** Thrown from the observer to unwind the script; an Error, so script catch blocks cannot swallow it. */
    private static final class LimitExceeded extends Error {
        LimitExceeded(String message) {
            super(message, null, false, false);
        }
    }

    private final class LimitedFactory extends ContextFactory {
        private final long deadline;
        private final StopSignal stop;
        private final long allocationLimit;

        LimitedFactory(long deadline, StopSignal stop, long allocationLimit) {
            this.deadline = deadline;
            this.stop = stop;
            this.allocationLimit = allocationLimit;
        }

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
            if (stop.isStopped()) {
                throw new LimitExceeded("the run was stopped");
            }
            if (System.nanoTime() > deadline) {
                throw new LimitExceeded("Code execution timed out after " + limits.timeout().toSeconds() + "s");
            }
            long used = allocated();
            if (used >= 0 && allocationLimit > 0 && used > allocationLimit) {
                throw new LimitExceeded("Code used more than " + limits.memoryBytes() / (1024 * 1024)
                        + " MiB of memory");
            }
        }
    }
}
