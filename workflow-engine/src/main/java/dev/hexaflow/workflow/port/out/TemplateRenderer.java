package dev.hexaflow.workflow.port.out;

import dev.hexaflow.workflow.engine.RunStoppedException;
import dev.hexaflow.workflow.engine.StopSignal;
import java.util.Map;

/**
 * Renders a Jinja2 template with named variables, as Dify's template-transform and jinja2 prompts do: once, a value
 * printed as text and never read as a template, within the given limits and until the run stops.
 *
 * <p>A node compiles its templates once, when its workflow is prepared, and renders the compiled template on each
 * run; {@link #render(String, Map, RenderLimits, StopSignal)} compiles and renders in one call.
 */
public interface TemplateRenderer {

    /**
     * @throws TemplateLimitException when the render breaks one of {@code limits}
     * @throws TemplateException when the template cannot be parsed or rendered
     * @throws RunStoppedException when {@code stop} says the run is stopping (by a user or its time limit)
     */
    String render(String template, Map<String, Object> variables, RenderLimits limits, StopSignal stop);

    /**
     * The template made ready to render many times, on any thread. Compiling never fails: a template that cannot
     * be parsed fails each render, with the same message as {@link #render(String, Map, RenderLimits, StopSignal)}.
     */
    default CompiledTemplate compile(String template) {
        return (variables, limits, stop) -> render(template, variables, limits, stop);
    }

    /** A template compiled once; each render shares nothing mutable with another, so renders may run at once. */
    @FunctionalInterface
    interface CompiledTemplate {

        /** As {@link TemplateRenderer#render(String, Map, RenderLimits, StopSignal)}, with the same exceptions. */
        String render(Map<String, Object> variables, RenderLimits limits, StopSignal stop);
    }

    /**
     * How much one render may do: the loop iterations of all its {@code for} loops together, and the length of its
     * output (and of any string it builds) in characters.
     */
    record RenderLimits(int maxLoopIterations, int maxOutputLength) {

        public RenderLimits {
            if (maxLoopIterations < 1) {
                throw new IllegalArgumentException("maxLoopIterations must be at least 1, was " + maxLoopIterations);
            }
            if (maxOutputLength < 1) {
                throw new IllegalArgumentException("maxOutputLength must be at least 1, was " + maxOutputLength);
            }
        }
    }

    /** A template that failed, with the engine's reason. */
    class TemplateException extends RuntimeException {
        public TemplateException(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /** A render that broke one of its {@link RenderLimits}; the message names the limit and its value. */
    class TemplateLimitException extends TemplateException {
        public TemplateLimitException(String message) {
            super(message, null);
        }
    }
}
