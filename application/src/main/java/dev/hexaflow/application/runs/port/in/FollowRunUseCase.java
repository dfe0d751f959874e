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
    record FollowRunQuery(String appId, String runId, long after) {
        public FollowRunQuery {
            if (after < 0) {
                throw new ApiException(ApiError.INVALID_PARAM, "Last-Event-ID must be a whole number of 0 or more.");
            }
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
