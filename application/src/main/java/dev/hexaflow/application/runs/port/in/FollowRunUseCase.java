package dev.hexaflow.application.runs.port.in;

import dev.hexaflow.application.common.ApiError;
import dev.hexaflow.application.common.ApiException;
import java.time.Duration;

/**
 * Follows an app's run by its events as its stream showed them: those kept after a given one, then the run live
 * until it ends; each event once, in order, whenever the follower came.
 */
public interface FollowRunUseCase {

    /** @throws ApiException NOT_FOUND for an unknown run or another app's */
    Following follow(FollowRunQuery query);

    /** @param after the number of the last event the follower has (0 for none: from the first) */
    /**
     * @param continueOnPause go on past a pause to the run's end (Dify's {@code continue_on_pause}); otherwise the
     *                        stream ends with the {@code workflow_paused} of a run paused now
     * @param fromLatestPause start after the run's latest pause, or for an ended run with its end alone, as Dify's
     *                        {@code /workflow/{id}/events} does; {@code after} is then not read
     * @param user            the end user the run must belong to (an unknown run otherwise); null for any
     */
    record FollowRunQuery(String appId, String runId, long after, boolean continueOnPause, boolean fromLatestPause,
            String user) {
        public FollowRunQuery {
            if (after < 0) {
                throw new ApiException(ApiError.INVALID_PARAM, "Last-Event-ID must be a whole number of 0 or more.");
            }
        }

        /** From after event {@code after}, any end user's run, ending at a pause. */
        public FollowRunQuery(String appId, String runId, long after) {
            this(appId, runId, after, false, false, null);
        }

        public FollowRunQuery after(long seq) {
            return new FollowRunQuery(appId, runId, seq, continueOnPause, false, user);
        }
    }

    /** A run being followed, one event at a time; closed when the follower leaves. */
    interface Following extends AutoCloseable {

        /** The next event, or {@link Next.Quiet} when none came within {@code wait}, or {@link Next.End}. */
        Next next(Duration wait) throws InterruptedException;

        @Override
        void close();
    }

    /** What a follower is told next. */
    sealed interface Next {

        /** The run's event: its number (from 1) and the text of its frame's data. */
        record Event(long seq, String data) implements Next {
        }

        /** Nothing came for a while; the run goes on. */
        record Quiet() implements Next {
        }

        /** The run has ended and every event of it was told. */
        record End() implements Next {
        }
    }
}
