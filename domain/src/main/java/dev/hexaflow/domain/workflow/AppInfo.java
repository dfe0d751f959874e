package dev.hexaflow.domain.workflow;

import java.util.Set;

/** What the DSL says of the app: its name, mode, icon and description. */
public record AppInfo(String name, String mode, String icon, String iconType, String iconBackground,
        String description, boolean useIconAsAnswerIcon) {

    public static final String WORKFLOW_MODE = "workflow";
    public static final String ADVANCED_CHAT_MODE = "advanced-chat";
    /** Dify's "Chatbot": a prompt, a model and the conversation's memory, described by {@code model_config}. */
    public static final String CHAT_MODE = "chat";
    /** Dify's "Agent": a chatbot whose model may call tools. */
    public static final String AGENT_CHAT_MODE = "agent-chat";
    /** Dify's "Text Generator": one prompt, one answer, no memory. */
    public static final String COMPLETION_MODE = "completion";

    /** The modes Dify describes by a {@code model_config} rather than a graph (its "easy UI" apps). */
    public static final Set<String> MODEL_CONFIG_MODES = Set.of(CHAT_MODE, AGENT_CHAT_MODE, COMPLETION_MODE);
    /** The modes Dify's /chat-messages serves. */
    public static final Set<String> CONVERSATION_MODES = Set.of(ADVANCED_CHAT_MODE, CHAT_MODE, AGENT_CHAT_MODE);

    public AppInfo {
        name = name == null ? "" : name;
        mode = mode == null ? "" : mode;
        description = description == null ? "" : description;
    }

    /**
     * An app whose run answers one message: a chatflow, a chatbot, an agent, or a text generator (Dify keeps a
     * completion's message in a conversation of its own too). Its graph answers with answer nodes.
     */
    public boolean isChat() {
        return CONVERSATION_MODES.contains(mode) || COMPLETION_MODE.equals(mode);
    }

    /** An app Dify describes by its {@code model_config}, whose graph Hexaflow builds from it. */
    public boolean isModelConfigApp() {
        return MODEL_CONFIG_MODES.contains(mode);
    }
}
