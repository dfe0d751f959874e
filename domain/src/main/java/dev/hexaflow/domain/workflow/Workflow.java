package dev.hexaflow.domain.workflow;

import java.util.List;

/**
 * A workflow or chatflow app as its DSL describes it: the app, the graph, the features (file upload, text to
 * speech, and for chatflows the opening statement, suggested questions and the rest, kept as given), the
 * environment variables and, for a chatflow, its conversation variables with their defaults.
 *
 * @param dslVersion the DSL version the file declared (0.1.0 where it declared none)
 */
public record Workflow(AppInfo app, String dslVersion, Graph graph, DataTree features,
        List<EnvironmentVariable> environmentVariables, List<ConversationVariable> conversationVariables) {

    public Workflow {
        if (app == null || graph == null) {
            throw new IllegalArgumentException("a workflow needs its app and its graph");
        }
        dslVersion = dslVersion == null ? "0.1.0" : dslVersion;
        features = features == null ? DataTree.of(java.util.Map.of()) : features;
        environmentVariables = environmentVariables == null ? List.of() : List.copyOf(environmentVariables);
        conversationVariables = conversationVariables == null ? List.of() : List.copyOf(conversationVariables);
    }

    /** A workflow app, or any app without conversation variables. */
    public Workflow(AppInfo app, String dslVersion, Graph graph, DataTree features,
            List<EnvironmentVariable> environmentVariables) {
        this(app, dslVersion, graph, features, environmentVariables, List.of());
    }

    /** An advanced-chat app (a chatflow): run per message of a conversation. */
    public boolean isChat() {
        return app.isChat();
    }

    /** The start node's input form, as its {@code variables} data. */
    public List<DataTree> inputForm() {
        return graph.start().map(start -> start.data().trees("variables")).orElse(List.of());
    }

    /**
     * The start node's input form as typed fields, read on each call (a prepared workflow keeps them read once).
     *
     * @throws InvalidNodeDataException naming the field, for a form that a workflow's checks would refuse
     */
    public List<InputField> inputFields() {
        return inputForm().stream().map(InputField::of).toList();
    }
}
