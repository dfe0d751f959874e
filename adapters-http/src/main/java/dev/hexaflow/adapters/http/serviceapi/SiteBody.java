package dev.hexaflow.adapters.http.serviceapi;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import dev.hexaflow.domain.app.SiteSettings;

/** An app's web page settings as Dify's /site answers them; the chat colours Hexaflow's pages do not have. */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record SiteBody(String title, String chatColorTheme, boolean chatColorThemeInverted, String iconType,
        String icon, String iconBackground, String iconUrl, String description, String copyright,
        String privacyPolicy, String customDisclaimer, String defaultLanguage, boolean showWorkflowSteps,
        boolean useIconAsAnswerIcon) {

    public static SiteBody of(SiteSettings site) {
        return new SiteBody(site.title(), null, false, site.iconType(), site.icon(), site.iconBackground(),
                site.iconUrl(), site.description(), site.copyright(), site.privacyPolicy(), site.customDisclaimer(),
                site.defaultLanguage(), site.showWorkflowSteps(), site.useIconAsAnswerIcon());
    }
}
