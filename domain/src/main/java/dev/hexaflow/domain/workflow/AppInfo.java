package dev.hexaflow.domain.workflow;

/** What the DSL says of the app: its name, mode, icon and description. */
public record AppInfo(String name, String mode, String icon, String iconType, String iconBackground,
        String description, boolean useIconAsAnswerIcon) {

    public static final String WORKFLOW_MODE = "workflow";
    public static final String ADVANCED_CHAT_MODE = "advanced-chat";

    public AppInfo {
        name = name == null ? "" : name;
        mode = mode == null ? "" : mode;
        description = description == null ? "" : description;
    }

    /** A chatflow: Dify's advanced-chat mode. */
    public boolean isChat() {
        return ADVANCED_CHAT_MODE.equals(mode);
    }
}
