package dev.hexaflow.app.adapters;

import dev.hexaflow.application.runs.port.out.RunMonitor;
import dev.hexaflow.domain.workflow.NodeExecution;
import dev.hexaflow.domain.workflow.NodeStatus;
import dev.hexaflow.domain.workflow.RunEvent;
import dev.hexaflow.domain.workflow.RunStatus;
import dev.hexaflow.domain.workflow.WorkflowRun;
import dev.hexaflow.workflow.engine.RunListener;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One log line per run that failed: its app, its id, the node that failed first (id and type) and the error, as
 * a warning; a stopped run is no failure, and gets an info line. Runs that succeed, partly or wholly, are left to
 * the run logs: a busy server would write little else.
 */
public final class Slf4jRunMonitor implements RunMonitor {

    private static final Logger LOG = LoggerFactory.getLogger("dev.hexaflow.runs");
    /** An error may quote a whole answer of a model or a server: a line keeps its start. */
    static final int LONGEST_ERROR = 500;

    /** Why a run failed, for a log collector to count by. */
    enum ErrorKind {
        /** A node failed and no error strategy took it: the run ended there. */
        NODE_FAILED,
        /** The run reached the most time a run may take. */
        TIME_LIMIT,
        /** The run failed with no node to blame (its store, its checks). */
        RUN_FAILED
    }

    @Override
    public RunListener watch(WatchedRun run) {
        return new RunListener() {
            /** The first node execution that failed: the one a failed run is blamed on. */
            private volatile NodeExecution failed;

            @Override
            public void on(RunEvent event) {
                if (event instanceof RunEvent.NodeFinished finished && failed == null
                        && finished.execution().status() == NodeStatus.FAILED) {
                    failed = finished.execution();
                } else if (event instanceof RunEvent.WorkflowFinished finished) {
                    ended(run, finished.run(), failed);
                }
            }
        };
    }

    private static void ended(WatchedRun watched, WorkflowRun run, NodeExecution node) {
        if (run.status() == RunStatus.STOPPED) {
            LOG.atInfo().addKeyValue("app_id", watched.appId()).addKeyValue("run_id", run.id())
                    .log("Run {} of app {} was stopped", run.id(), watched.appId());
            return;
        }
        if (run.status() != RunStatus.FAILED) {
            return;
        }
        String error = oneLine(run.error() != null ? run.error() : node != null ? node.error() : null);
        ErrorKind kind = node != null ? ErrorKind.NODE_FAILED
                : error.startsWith("Max execution time") ? ErrorKind.TIME_LIMIT : ErrorKind.RUN_FAILED;
        var line = LOG.atWarn().addKeyValue("app_id", watched.appId()).addKeyValue("run_id", run.id())
                .addKeyValue("error_kind", kind.name().toLowerCase(java.util.Locale.ROOT));
        if (node == null) {
            line.log("Run {} of app {} failed ({}): {}", run.id(), watched.appId(),
                    kind.name().toLowerCase(java.util.Locale.ROOT), error);
            return;
        }
        String type = node.nodeType().wireName();
        line.addKeyValue("node_id", node.nodeId()).addKeyValue("node_type", type)
                .log("Run {} of app {} failed at node {} ({}): {}", run.id(), watched.appId(), node.nodeId(), type,
                        error);
    }

    /** No line breaks into the log, and no more than {@link #LONGEST_ERROR} characters. */
    private static String oneLine(String text) {
        if (text == null || text.isBlank()) {
            return "no error was given";
        }
        String clean = text.strip().replaceAll("\\s*[\\r\\n]+\\s*", " / ").replaceAll("\\p{Cntrl}", "?");
        return clean.length() <= LONGEST_ERROR ? clean : clean.substring(0, LONGEST_ERROR) + "...";
    }
}
