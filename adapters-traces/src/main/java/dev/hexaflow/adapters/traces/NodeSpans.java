package dev.hexaflow.adapters.traces;

import dev.hexaflow.workflow.engine.NodeScope;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The spans of the node executions under way, by execution id: the run's watcher puts a span here when the node
 * starts (on the thread that is about to run it) and takes it out when the node ends; the engine asks for it around
 * each attempt, so that the node's outbound calls find it current.
 */
final class NodeSpans implements NodeScope {

    private final Map<String, Span> open = new ConcurrentHashMap<>();

    void started(String executionId, Span span) {
        open.put(executionId, span);
    }

    void ended(String executionId) {
        open.remove(executionId);
    }

    @Override
    public Entered enter(String runId, String executionId) {
        Span span = open.get(executionId);
        if (span == null) {
            return Entered.NOTHING;
        }
        Scope scope = Context.current().with(span).makeCurrent();
        return scope::close;
    }
}
