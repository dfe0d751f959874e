package dev.hexaflow.adapters.nodes.code;

import java.time.Duration;

/**
 * The limits of one code run: wall time; memory, which for javascript is the heap of the worker JVM that runs the
 * call ({@code -Xmx}), so it bounds what the code holds live at once, garbage being collected, and for python the
 * worker's address space; and the size of the result.
 */
public record CodeLimits(Duration timeout, long memoryBytes, int maxResultChars) {

    public static final CodeLimits DEFAULTS = new CodeLimits(Duration.ofSeconds(15), 1024L * 1024 * 1024,
            4 * 1024 * 1024);

    public CodeLimits {
        if (timeout == null || timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("timeout must be positive");
        }
        if (memoryBytes < 16L * 1024 * 1024) {
            throw new IllegalArgumentException("memoryBytes must be at least 16 MiB");
        }
        if (maxResultChars < 1024) {
            throw new IllegalArgumentException("maxResultChars must be at least 1024");
        }
    }
}
