package dev.hexaflow.domain.limit;

import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;

/**
 * An app's limits. Each is off when empty or 0: request rates per key and per end user; runs at once for the app
 * and for each end user (0: no limit), with the runs that may wait for room (async and trigger-started runs, in
 * arrival order; 0: refused at once like the others); budgets; what a run that crosses a budget does; and the
 * time zone whose days and months the budgets run over.
 */
public record AppLimits(Optional<RateLimit> perKey, Optional<RateLimit> perEndUser, int activeRuns,
        int activeRunsPerEndUser, int queuedRuns, List<Budget> budgets, OnCrossing onCrossing, ZoneId zone) {

    /** No limit at all: what an app has unless the server's defaults or its own settings say otherwise. */
    public static final AppLimits NONE = new AppLimits(Optional.empty(), Optional.empty(), 0, 0, 0, List.of(),
            OnCrossing.STOP, ZoneOffset.UTC);

    /** What a run does when its spending crosses a budget while it runs. */
    public enum OnCrossing {
        /** It ends its current model call and fails, naming the budget. */
        STOP,
        /** It finishes; the next run is refused. */
        FINISH
    }

    public AppLimits {
        if (perKey == null || perEndUser == null || budgets == null || onCrossing == null || zone == null) {
            throw new IllegalArgumentException("limits are empty or 0 when off, never null");
        }
        if (activeRuns < 0 || activeRunsPerEndUser < 0 || queuedRuns < 0) {
            throw new IllegalArgumentException("runs at once and queued runs are 0 (no limit) or more");
        }
        if (queuedRuns > 0 && activeRuns == 0 && activeRunsPerEndUser == 0) {
            throw new IllegalArgumentException("queued runs wait for room under a limit of runs at once; set one");
        }
        budgets = List.copyOf(budgets);
    }
}
