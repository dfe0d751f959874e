package dev.hexaflow.workflow.port.out;

import dev.hexaflow.workflow.engine.StopSignal;
import java.util.Map;

/**
 * Runs a code node's {@code main} with its inputs in a sandbox of the runner's kind, and answers what main
 * returned. Checking the result against the declared outputs is the node's job, not the runner's.
 */
public interface CodeRunner {

    /** The language this runner runs: {@code python3} or {@code javascript}, as the DSL names them. */
    String language();

    /** @throws CodeException with the message the code's failure gave, or the limit it broke */
    Map<String, Object> run(String code, Map<String, Object> inputs, StopSignal stop);

    /** Code that failed: an error it raised, a limit it broke, or a result that is not an object. */
    class CodeException extends RuntimeException {
        public CodeException(String message) {
            super(message);
        }

        public CodeException(String message, Throwable cause) {
            super(message, cause);
        }
    }
}
