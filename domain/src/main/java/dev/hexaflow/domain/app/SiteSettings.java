package dev.hexaflow.domain.app;

/** The settings of an app's web page, as Dify's /site answers them. */
public record SiteSettings(String title, String iconType, String icon, String iconBackground, String iconUrl,
        String description, String copyright, String privacyPolicy, String customDisclaimer,
        String defaultLanguage, boolean showWorkflowSteps, boolean useIconAsAnswerIcon) {

    public SiteSettings {
        title = title == null ? "" : title;
        iconType = iconType == null || iconType.isBlank() ? "emoji" : iconType;
        description = description == null ? "" : description;
        copyright = copyright == null ? "" : copyright;
        privacyPolicy = privacyPolicy == null ? "" : privacyPolicy;
        customDisclaimer = customDisclaimer == null ? "" : customDisclaimer;
        defaultLanguage = defaultLanguage == null || defaultLanguage.isBlank() ? "en-US" : defaultLanguage;
        if (!iconType.equals("emoji") && !iconType.equals("image")) {
            throw new IllegalArgumentException("icon_type must be emoji or image, was " + iconType);
        }
    }
}
