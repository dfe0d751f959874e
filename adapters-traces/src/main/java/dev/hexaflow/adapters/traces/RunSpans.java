package dev.hexaflow.adapters.traces;

import dev.hexaflow.domain.workflow.NodeExecution;
import dev.hexaflow.domain.workflow.NodeStatus;
import dev.hexaflow.domain.workflow.RunEvent;
import dev.hexaflow.domain.workflow.WorkflowRun;
import dev.hexaflow.workflow.engine.RunListener;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One run's spans, fed its events in order. A node inside an iteration or loop is the child of the container's
 * span, any other of the run's. Spans left open when the run ends (a run that broke off) end with it.
 */
final class RunSpans implements RunListener {

    static final AttributeKey<String> RUN_STATUS = AttributeKey.stringKey("hexaflow.run.status");
    static final AttributeKey<Long> RUN_TOKENS = AttributeKey.longKey("hexaflow.run.total_tokens");
    static final AttributeKey<Long> RUN_STEPS = AttributeKey.longKey("hexaflow.run.total_steps");
    static final AttributeKey<String> NODE_ID = AttributeKey.stringKey("hexaflow.node.id");
    static final AttributeKey<String> NODE_TYPE = AttributeKey.stringKey("hexaflow.node.type");
    static final AttributeKey<String> NODE_TITLE = AttributeKey.stringKey("hexaflow.node.title");
    static final AttributeKey<String> NODE_EXECUTION = AttributeKey.stringKey("hexaflow.node.execution_id");
    static final AttributeKey<String> NODE_STATUS = AttributeKey.stringKey("hexaflow.node.status");
    static final AttributeKey<Long> ITERATION_INDEX = AttributeKey.longKey("hexaflow.node.iteration_index");
    static final AttributeKey<Long> LOOP_INDEX = AttributeKey.longKey("hexaflow.node.loop_index");

    /** An error message longer than this is cut, as the failed-run log line cuts it. */
    static final int LONGEST_MESSAGE = 500;

    private final Tracer tracer;
    private final NodeSpans registry;
    private final Span run;
    /** Open node and container spans, by execution id; containers also by node id, for their children. */
    private final Map<String, Span> open = new ConcurrentHashMap<>();
    private final Map<String, Span> containers = new ConcurrentHashMap<>();

    RunSpans(Tracer tracer, NodeSpans registry, Span run) {
        this.tracer = tracer;
        this.registry = registry;
        this.run = run;
    }

    @Override
    public void on(RunEvent event) {
        if (event instanceof RunEvent.NodeStarted started) {
            NodeExecution execution = started.execution();
            Span parent = parentOf(execution);
            opened(execution.id(), tracer.spanBuilder(GenAiAttributes.isModelNode(execution.nodeType())
                            ? "chat" : "node " + execution.nodeType().wireName())
                    .setParent(Context.root().with(parent)).setSpanKind(SpanKind.INTERNAL)
                    .setAllAttributes(nodeAttributes(execution.nodeId(), execution.nodeType().wireName(),
                            execution.title(), execution.id()))
                    .startSpan());
        } else if (event instanceof RunEvent.NodeRetried retried) {
            Span span = open.get(retried.attempt().id());
            if (span != null) {
                span.addEvent("retry", Attributes.of(AttributeKey.longKey("hexaflow.node.retry_index"),
                        (long) retried.retryIndex(), AttributeKey.stringKey("error.message"),
                        cut(retried.attempt().error())));
            }
        } else if (event instanceof RunEvent.NodeFinished finished) {
            nodeFinished(finished.execution());
        } else if (event instanceof RunEvent.ContainerStarted started) {
            Span span = tracer.spanBuilder("node " + started.node().type().wireName())
                    .setParent(Context.root().with(run)).setSpanKind(SpanKind.INTERNAL)
                    .setAllAttributes(nodeAttributes(started.node().id(), started.node().type().wireName(),
                            started.node().title(), started.executionId()))
                    .startSpan();
            containers.put(started.node().id(), span);
            opened(started.executionId(), span);
        } else if (event instanceof RunEvent.ContainerNext next) {
            Span span = open.get(next.executionId());
            if (span != null) {
                span.addEvent("round", Attributes.of(AttributeKey.longKey("hexaflow.node.round"),
                        (long) next.round()));
            }
        } else if (event instanceof RunEvent.ContainerCompleted done) {
            containers.remove(done.node().id());
            closed(done.executionId(), done.status(), done.error());
        } else if (event instanceof RunEvent.WorkflowFinished finished) {
            runFinished(finished.run());
        } else if (event instanceof RunEvent.WorkflowPaused paused) {
            // The run's span ends with the stretch it covers; the stretch after its resumption has a span of its own.
            runFinished(paused.run());
        }
    }

    private Span parentOf(NodeExecution execution) {
        String container = execution.metadata().iterationId() != null ? execution.metadata().iterationId()
                : execution.metadata().loopId();
        Span parent = container == null ? null : containers.get(container);
        return parent != null ? parent : run;
    }

    private static Attributes nodeAttributes(String nodeId, String type, String title, String executionId) {
        return Attributes.builder().put(NODE_ID, nodeId).put(NODE_TYPE, type).put(NODE_TITLE, title == null ? ""
                : title).put(NODE_EXECUTION, executionId).build();
    }

    private void opened(String executionId, Span span) {
        open.put(executionId, span);
        registry.started(executionId, span);
    }

    private void nodeFinished(NodeExecution execution) {
        Span span = open.get(execution.id());
        if (span == null) {
            return;
        }
        Integer iteration = execution.metadata().iterationIndex();
        if (iteration != null) {
            span.setAttribute(ITERATION_INDEX, iteration.longValue());
        }
        Integer loop = execution.metadata().loopIndex();
        if (loop != null) {
            span.setAttribute(LOOP_INDEX, loop.longValue());
        }
        if (GenAiAttributes.isModelNode(execution.nodeType())) {
            GenAiAttributes.of(execution).ifPresent(attributes -> {
                span.setAllAttributes(attributes);
                String model = attributes.get(GenAiAttributes.REQUEST_MODEL);
                if (model != null) {
                    span.updateName("chat " + model);
                }
            });
        }
        closed(execution.id(), execution.status(), execution.error());
    }

    private void closed(String executionId, NodeStatus status, String error) {
        Span span = open.remove(executionId);
        registry.ended(executionId);
        if (span == null) {
            return;
        }
        span.setAttribute(NODE_STATUS, status.wireName());
        if (status == NodeStatus.FAILED || status == NodeStatus.EXCEPTION) {
            span.setStatus(StatusCode.ERROR, cut(error));
        }
        span.end();
    }

    private void runFinished(WorkflowRun ended) {
        open.keySet().forEach(executionId -> closed(executionId, NodeStatus.STOPPED, null));
        containers.clear();
        run.setAttribute(RUN_STATUS, ended.status().wireName());
        run.setAttribute(RUN_TOKENS, ended.totalTokens());
        run.setAttribute(RUN_STEPS, (long) ended.totalSteps());
        if (ended.error() != null && ended.status() != dev.hexaflow.domain.workflow.RunStatus.STOPPED) {
            run.setStatus(StatusCode.ERROR, cut(ended.error()));
        }
        run.end();
    }

    private static String cut(String message) {
        if (message == null) {
            return "";
        }
        String line = message.replace('\n', ' ');
        return line.length() > LONGEST_MESSAGE ? line.substring(0, LONGEST_MESSAGE) + "…" : line;
    }
}
