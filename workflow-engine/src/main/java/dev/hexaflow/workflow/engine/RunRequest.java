package dev.hexaflow.workflow.engine;

import dev.hexaflow.domain.workflow.FileValue;
import dev.hexaflow.domain.workflow.Workflow;
import java.util.List;
import java.util.Map;

/**
 * One run to make: the workflow, the ids it runs under, the end user, the inputs as the client sent them (checked
 * against the start form by the engine), and the files of {@code sys.files}. The run and task ids may be chosen
 * by the caller, who then knows them before the first event; the engine makes them where they are null. A
 * chatflow's run may carry its chat turn ({@link #withChat}); one without runs as a first turn with an empty
 * query and the DSL's conversation variables.
 */
public record RunRequest(Workflow workflow, String appId, String workflowId, String userId,
        Map<String, Object> inputs, List<FileValue> files, String runId, String taskId, ChatTurn chat,
        String rootNodeId) {

    /** A run from the workflow's start node, for a caller. */
    public RunRequest(Workflow workflow, String appId, String workflowId, String userId,
            Map<String, Object> inputs, List<FileValue> files, String runId, String taskId, ChatTurn chat) {
        this(workflow, appId, workflowId, userId, inputs, files, runId, taskId, chat, null);
    }

    /** A run without a chat turn (a workflow app's, or a chatflow called as a workflow). */
    public RunRequest(Workflow workflow, String appId, String workflowId, String userId,
            Map<String, Object> inputs, List<FileValue> files, String runId, String taskId) {
        this(workflow, appId, workflowId, userId, inputs, files, runId, taskId, null);
    }

    public RunRequest {
        if (workflow == null) {
            throw new IllegalArgumentException("a run needs a workflow");
        }
        appId = appId == null ? "" : appId;
        workflowId = workflowId == null ? "" : workflowId;
        if (userId == null || userId.isEmpty()) {
            throw new IllegalArgumentException("a run needs a user");
        }
        inputs = inputs == null ? Map.of() : inputs;
        files = files == null ? List.of() : List.copyOf(files);
    }

    public static RunRequest of(Workflow workflow, String userId, Map<String, Object> inputs) {
        return new RunRequest(workflow, null, null, userId, inputs, List.of(), null, null);
    }

    public RunRequest withIds(String run, String task) {
        return new RunRequest(workflow, appId, workflowId, userId, inputs, files, run, task, chat, rootNodeId);
    }

    /** This run as one turn of a conversation with a chatflow. */
    public RunRequest withChat(ChatTurn turn) {
        if (turn == null) {
            throw new IllegalArgumentException("a chat run needs its turn");
        }
        return new RunRequest(workflow, appId, workflowId, userId, inputs, files, runId, taskId, turn, rootNodeId);
    }

    /**
     * This run started by one of the workflow's triggers: {@code inputs} are what the trigger hands its node (they
     * are not checked against a start form, which such a workflow has not), and the other triggers do not run.
     */
    public RunRequest fromTrigger(String triggerNodeId) {
        if (triggerNodeId == null || triggerNodeId.isEmpty()) {
            throw new IllegalArgumentException("a triggered run names its trigger node");
        }
        return new RunRequest(workflow, appId, workflowId, userId, inputs, files, runId, taskId, chat, triggerNodeId);
    }

    /** The chat turn, or the empty first turn a chatflow runs without one. */
    public ChatTurn chatTurn() {
        return chat == null ? ChatTurn.none() : chat;
    }
}
