package dev.hexaflow.adapters.http.sse;

import dev.hexaflow.adapters.http.support.DifyErrors;
import dev.hexaflow.adapters.http.wire.DifyWire;
import dev.hexaflow.application.common.ApiException;
import dev.hexaflow.application.runs.port.in.FollowRunUseCase.Following;
import dev.hexaflow.application.runs.port.in.FollowRunUseCase.Next;
import dev.hexaflow.application.runs.port.in.RunWorkflowUseCase.RunObserver;
import dev.hexaflow.application.runs.port.in.RunWorkflowUseCase.RunUnderWay;
import dev.hexaflow.domain.workflow.RunEvent;
import dev.hexaflow.domain.workflow.WorkflowRun;
import io.javalin.http.Context;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One run's events written as server-sent events, with a ping whenever none came for a while. Events wait in a
 * queue the run never blocks on, and the run's end comes through the same queue, after its last event: the
 * writer ends the response as soon as it takes the end, whatever the timing, with no flag to check between two
 * waits. A client that goes away only stops the writing; the run goes on. How an event becomes frames is the
 * stream's {@link Frames}: a workflow run's frames, or a chat turn's. A run followed after the fact
 * ({@link #replay}) is written from its kept events, each frame with its number as its {@code id:}.
 */
public final class RunEventStream implements RunObserver {

    private static final Logger LOG = LoggerFactory.getLogger(RunEventStream.class);
    private static final Object END = new Object();

    /** The run could not be kept to its end: the stream says so with Dify's error event before it ends. */
    private record Failed(Throwable cause) {
    }

    /** The run's end as its use case answers it, for the frames that follow its last event. */
    private record Ended(Object result) {
    }
    private static final byte[] PING = "event: ping\n\n".getBytes(StandardCharsets.UTF_8);

    /** The frames a stream writes: for each event, after the run's end, and for an end that failed. */
    public interface Frames<T> {

        List<Map<String, Object>> of(RunEvent event);

        /** What follows the last event once the run is over (a chat's message_end); none for a workflow. */
        List<Map<String, Object>> end(T result);

        /** The error event for an end that failed (a store that could not keep the run, a broken run). */
        Map<String, Object> failure(Throwable cause);
    }

    /**
     * A run started with the stream as its observer: its task, its end and how its events are written; or, for a
     * run an earlier request started (an idempotent retry), the run followed from its kept events.
     */
    public record Started<T>(String taskId, CompletableFuture<T> done, Frames<T> frames, Following replay) {

        public Started(String taskId, CompletableFuture<T> done, Frames<T> frames) {
            this(taskId, done, frames, null);
        }

        /** A run this request did not start, written from its kept events as the events endpoint writes them. */
        public static Started<WorkflowRun> replay(Following following) {
            return new Started<>(null, null, null, following);
        }

        /** A workflow run's stream: one frame per event, nothing after the end. */
        public static Started<WorkflowRun> workflow(RunUnderWay run) {
            return new Started<>(run.taskId(), run.done(), new Frames<>() {
                @Override
                public List<Map<String, Object>> of(RunEvent event) {
                    return List.of(DifyWire.event(event, run.runId(), run.taskId()));
                }

                @Override
                public List<Map<String, Object>> end(WorkflowRun result) {
                    return List.of();
                }

                @Override
                public Map<String, Object> failure(Throwable cause) {
                    Map<String, Object> event = new LinkedHashMap<>();
                    event.put("event", "error");
                    event.put("workflow_run_id", run.runId());
                    event.putAll(errorOf(cause));
                    return event;
                }
            });
        }
    }

    /**
     * Streams being written now, in this process: streams are written by the routes' threads through the static
     * methods below, and one process serves one server, so a count of the class is the server's.
     */
    private static final AtomicInteger OPEN = new AtomicInteger();

    private final BlockingQueue<Object> queue = new LinkedBlockingQueue<>();
    private final Duration pingInterval;
    private volatile boolean gone;

    private RunEventStream(Duration pingInterval) {
        this.pingInterval = pingInterval;
    }

    /**
     * Starts a run with a stream as its listener and writes the stream to the response until the run ends or the
     * client leaves.
     *
     * @param start starts the run with the observer it is given
     */
    public static <T> void write(Context ctx, Duration pingInterval, Function<RunObserver, Started<T>> start) {
        RunEventStream stream = new RunEventStream(pingInterval);
        Started<T> handle = start.apply(stream);
        if (handle.replay() != null) {
            stream.leave();
            replay(ctx, pingInterval, handle.replay());
            return;
        }
        // The run's end comes after every event it was observed with, so the end queues after them.
        handle.done().whenComplete((result, failure) -> {
            stream.queue.add(failure != null ? new Failed(failure) : new Ended(result));
            stream.queue.add(END);
        });
        headers(ctx);
        OPEN.incrementAndGet();
        try {
            stream.send(ctx.res().getOutputStream(), handle.frames());
        } catch (IOException e) {
            stream.leave();
            LOG.debug("The client of task {} went away; the run goes on", handle.taskId());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            stream.leave();
        } finally {
            OPEN.decrementAndGet();
        }
    }

    /** Event streams (live or followed) being written to clients now, in this process. */
    public static int openStreams() {
        return OPEN.get();
    }

    private static void headers(Context ctx) {
        ctx.status(200);
        ctx.res().setContentType("text/event-stream; charset=utf-8");
        ctx.res().setHeader("Cache-Control", "no-cache");
        ctx.res().setHeader("X-Accel-Buffering", "no");
    }

    /**
     * Writes a followed run's events, each as {@code id: <number>} then the data line its stream had, with a ping
     * whenever none came for a while, until the run has ended or the client leaves.
     */
    public static void replay(Context ctx, Duration pingInterval, Following following) {
        headers(ctx);
        OPEN.incrementAndGet();
        try (following) {
            OutputStream out = ctx.res().getOutputStream();
            out.flush();
            while (true) {
                Next next = following.next(pingInterval);
                if (next instanceof Next.End) {
                    return;
                }
                if (next instanceof Next.Event event) {
                    out.write(("id: " + event.seq() + "\ndata: " + event.data() + "\n\n")
                            .getBytes(StandardCharsets.UTF_8));
                } else {
                    out.write(PING);
                }
                out.flush();
            }
        } catch (IOException e) {
            LOG.debug("A follower of a run went away");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            OPEN.decrementAndGet();
        }
    }

    @Override
    public void on(RunEvent event) {
        // A chat run's conversation variables are for the conversation store; Dify's stream has no such event.
        if (!gone && !(event instanceof RunEvent.ConversationVariables)) {
            queue.add(event);
        }
    }

    @SuppressWarnings("unchecked")
    private <T> void send(OutputStream out, Frames<T> frames) throws IOException, InterruptedException {
        out.flush();
        while (true) {
            Object next = queue.poll(pingInterval.toMillis(), TimeUnit.MILLISECONDS);
            if (next == END) {
                return;
            }
            if (next == null) {
                out.write(PING);
            } else if (next instanceof Failed failed) {
                write(out, List.of(frames.failure(failed.cause())));
            } else if (next instanceof Ended ended) {
                write(out, frames.end((T) ended.result()));
            } else {
                write(out, frames.of((RunEvent) next));
            }
            out.flush();
        }
    }

    private static void write(OutputStream out, List<Map<String, Object>> events) throws IOException {
        for (Map<String, Object> event : events) {
            out.write(DifyWire.frame(event).getBytes(StandardCharsets.UTF_8));
        }
    }

    /**
     * Dify's error fields for an end that failed: a refusal (a store that cannot keep the run) says so as the
     * API's error does; anything else is Dify's internal error, whose message says nothing of the server.
     */
    public static Map<String, Object> errorOf(Throwable failure) {
        Throwable cause = failure instanceof java.util.concurrent.CompletionException && failure.getCause() != null
                ? failure.getCause() : failure;
        Map<String, Object> event = new LinkedHashMap<>();
        if (cause instanceof ApiException refused) {
            event.put("code", DifyErrors.code(refused.error()));
            event.put("status", DifyErrors.status(refused.error()));
            event.put("message", refused.getMessage());
        } else {
            event.put("code", "internal_server_error");
            event.put("status", 500);
            event.put("message", "Internal Server Error, please contact support.");
        }
        return event;
    }

    private void leave() {
        gone = true;
        queue.clear();
    }
}
