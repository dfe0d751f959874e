package dev.hexaflow.workflow.engine;

import dev.hexaflow.workflow.port.out.TemplateRenderer.RenderLimits;
import java.time.Duration;

/**
 * The limits of a run: Dify's WORKFLOW_MAX_EXECUTION_STEPS (500) and WORKFLOW_MAX_EXECUTION_TIME (1200 s) by
 * default; the output cap of template-transform (Dify's 400 000 characters) and of a jinja2 prompt (4 000 000
 * characters, about the million tokens of the largest context windows); and the loop iterations one template
 * render may run (1 000 000: 0.3 to 4 s of Jinjava's time, by what the loop body does).
 */
public record EngineSettings(int maxSteps, Duration maxTime, int maxTemplateLength, int maxPromptLength,
        int maxTemplateLoops) {

    public static final EngineSettings DEFAULTS = new EngineSettings(500, Duration.ofSeconds(1200), 400_000,
            4_000_000, 1_000_000);

    public EngineSettings {
        if (maxSteps < 1) {
            throw new IllegalArgumentException("maxSteps must be at least 1, was " + maxSteps);
        }
        if (maxTime == null || maxTime.isNegative() || maxTime.isZero()) {
            throw new IllegalArgumentException("maxTime must be positive, was " + maxTime);
        }
        if (maxTemplateLength < 1) {
            throw new IllegalArgumentException("maxTemplateLength must be at least 1");
        }
        if (maxPromptLength < 1) {
            throw new IllegalArgumentException("maxPromptLength must be at least 1");
        }
        if (maxTemplateLoops < 1) {
            throw new IllegalArgumentException("maxTemplateLoops must be at least 1");
        }
    }

    public EngineSettings withMaxSteps(int steps) {
        return new EngineSettings(steps, maxTime, maxTemplateLength, maxPromptLength, maxTemplateLoops);
    }

    public EngineSettings withMaxTime(Duration time) {
        return new EngineSettings(maxSteps, time, maxTemplateLength, maxPromptLength, maxTemplateLoops);
    }

    public EngineSettings withMaxTemplateLoops(int loops) {
        return new EngineSettings(maxSteps, maxTime, maxTemplateLength, maxPromptLength, loops);
    }

    /** What one render of a template-transform may do. */
    public RenderLimits templateLimits() {
        return new RenderLimits(maxTemplateLoops, maxTemplateLength);
    }

    /** What one render of a jinja2 prompt may do. */
    public RenderLimits promptLimits() {
        return new RenderLimits(maxTemplateLoops, maxPromptLength);
    }
}
