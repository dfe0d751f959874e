package dev.hexaflow.adapters.traces;

import dev.hexaflow.application.runs.port.out.RunMonitor;
import dev.hexaflow.workflow.engine.RunListener;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;

/**
 * A span per run, the child of whatever span is current where the run starts (the request's, or the tool node's
 * of the run that called this app as a tool), and under it a span per node execution, built from the run's events
 * as they come: a node's span starts when the engine says it starts and ends when it says it ended.
 */
public final class OpenTelemetryRunMonitor implements RunMonitor {

    static final AttributeKey<String> APP_ID = AttributeKey.stringKey("hexaflow.app.id");
    static final AttributeKey<String> APP_MODE = AttributeKey.stringKey("hexaflow.app.mode");
    static final AttributeKey<String> RUN_ID = AttributeKey.stringKey("hexaflow.run.id");
    static final AttributeKey<String> TASK_ID = AttributeKey.stringKey("hexaflow.task.id");
    static final AttributeKey<String> WORKFLOW_ID = AttributeKey.stringKey("hexaflow.workflow.id");

    private final Tracer tracer;
    private final NodeSpans nodes;

    OpenTelemetryRunMonitor(Tracer tracer, NodeSpans nodes) {
        this.tracer = tracer;
        this.nodes = nodes;
    }

    @Override
    public RunListener watch(WatchedRun run) {
        Span span = tracer.spanBuilder("workflow run")
                .setParent(Context.current())
                .setSpanKind(SpanKind.INTERNAL)
                .setAttribute(APP_ID, run.appId())
                .setAttribute(APP_MODE, run.appMode())
                .setAttribute(RUN_ID, run.runId())
                .setAttribute(TASK_ID, run.taskId())
                .setAttribute(WORKFLOW_ID, run.workflowId())
                .startSpan();
        // A trace the sampler dropped is never exported: the run keeps no trace id then.
        if (span.getSpanContext().isSampled()) {
            run.tracedAs().accept(span.getSpanContext().getTraceId());
        }
        return new RunSpans(tracer, nodes, span);
    }
}
