package dev.hexaflow.application.workflow.engine;

import java.time.Duration;

/**
 * The limits of a run: Dify's WORKFLOW_MAX_EXECUTION_STEPS (500) and WORKFLOW_MAX_EXECUTION_TIME (1200 s) by
 * default; and the template output cap of template-transform (400 000 characters).
 */
public record EngineSettings(int maxSteps, Duration maxTime, int maxTemplateLength) {

    public static final EngineSettings DEFAULTS = new EngineSettings(500, Duration.ofSeconds(1200), 400_000);

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
    }

    public EngineSettings withMaxSteps(int steps) {
        return new EngineSettings(steps, maxTime, maxTemplateLength);
    }

    public EngineSettings withMaxTime(Duration time) {
        return new EngineSettings(maxSteps, time, maxTemplateLength);
    }
}
