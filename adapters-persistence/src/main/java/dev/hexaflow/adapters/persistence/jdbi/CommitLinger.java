package dev.hexaflow.adapters.persistence.jdbi;

import org.jdbi.v3.core.Jdbi;
import org.jdbi.v3.core.config.JdbiConfig;

/**
 * How long a group-commit writer under load waits for more changes before it commits a batch smaller than its
 * last one. A commit's fixed cost (its log write, its locks) is shared by its batch: when runs arrive faster than
 * commits end, a few microseconds of waiting keep the batches as large as the load makes them, where committing
 * whatever came first would shrink them to a few changes each. A writer whose last batch held one change does not
 * wait: a lone caller never pays for it. Carried by the Jdbi as {@link CommitSync} is.
 */
public final class CommitLinger implements JdbiConfig<CommitLinger> {

    /** The default wait, in microseconds (measured in BENCHMARKS.md). */
    public static final int DEFAULT_MICROS = 200;

    /** The longest wait an operator may set, in microseconds: a batch is never held a noticeable time. */
    public static final int MAX_MICROS = 10_000;

    private int micros = DEFAULT_MICROS;

    public CommitLinger() {
    }

    private CommitLinger(int micros) {
        this.micros = micros;
    }

    /** The wait set on {@code jdbi}, in nanoseconds; 0 for none. */
    static long nanosOf(Jdbi jdbi) {
        return jdbi.getConfig(CommitLinger.class).micros * 1000L;
    }

    /** Makes the writers made on {@code jdbi} from now on wait up to {@code micros} for more changes. */
    public static void applyTo(Jdbi jdbi, int micros) {
        if (micros < 0 || micros > MAX_MICROS) {
            throw new IllegalArgumentException("a writer's linger is 0 to " + MAX_MICROS + " microseconds, not "
                    + micros);
        }
        jdbi.getConfig(CommitLinger.class).micros = micros;
    }

    @Override
    public CommitLinger createCopy() {
        return new CommitLinger(micros);
    }
}
