package dev.hexaflow.domain.workflow;

import java.util.Optional;

/** The node types of Dify's DSL, by their {@code data.type} names. */
public enum NodeType {
    START("start"),
    END("end"),
    ANSWER("answer"),
    LLM("llm"),
    KNOWLEDGE_RETRIEVAL("knowledge-retrieval"),
    IF_ELSE("if-else"),
    CODE("code"),
    TEMPLATE_TRANSFORM("template-transform"),
    QUESTION_CLASSIFIER("question-classifier"),
    HTTP_REQUEST("http-request"),
    TOOL("tool"),
    VARIABLE_AGGREGATOR("variable-aggregator"),
    /** The legacy name of the variable aggregator. */
    VARIABLE_ASSIGNER("variable-assigner"),
    LOOP("loop"),
    LOOP_START("loop-start"),
    LOOP_END("loop-end"),
    ITERATION("iteration"),
    ITERATION_START("iteration-start"),
    PARAMETER_EXTRACTOR("parameter-extractor"),
    ASSIGNER("assigner"),
    DOCUMENT_EXTRACTOR("document-extractor"),
    LIST_OPERATOR("list-operator"),
    AGENT("agent"),
    /** Pauses the run until a person answers its form, or its time runs out. */
    HUMAN_INPUT("human-input"),
    /** Starts a run on a schedule (cron, or the editor's visual frequency). */
    TRIGGER_SCHEDULE("trigger-schedule"),
    /** Starts a run when its URL is called. */
    TRIGGER_WEBHOOK("trigger-webhook"),
    /** Starts a run on a third party's event; here, when an operator binds it to a webhook. */
    TRIGGER_PLUGIN("trigger-plugin");

    private final String wireName;

    NodeType(String wireName) {
        this.wireName = wireName;
    }

    public String wireName() {
        return wireName;
    }

    public static Optional<NodeType> fromWireName(String name) {
        for (NodeType type : values()) {
            if (type.wireName.equals(name)) {
                return Optional.of(type);
            }
        }
        return Optional.empty();
    }

    /** A trigger starts a run by itself, as the start node does for a caller's request. */
    public boolean isTrigger() {
        return this == TRIGGER_SCHEDULE || this == TRIGGER_WEBHOOK || this == TRIGGER_PLUGIN;
    }

    /** A node a run starts from: the start node, or a trigger. */
    public boolean isRoot() {
        return this == START || isTrigger();
    }

    /** Iteration and loop hold a sub-graph of their own. */
    public boolean isContainer() {
        return this == ITERATION || this == LOOP;
    }
}
