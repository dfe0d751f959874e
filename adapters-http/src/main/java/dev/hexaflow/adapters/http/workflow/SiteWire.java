package dev.hexaflow.adapters.http.workflow;

import dev.hexaflow.domain.app.SiteSettings;
import java.util.LinkedHashMap;
import java.util.Map;

/** Site settings as Dify's /site answers them. */
public final class SiteWire {

    private SiteWire() {
    }

    public static Map<String, Object> site(SiteSettings site) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("title", site.title());
        body.put("chat_color_theme", null);
        body.put("chat_color_theme_inverted", false);
        body.put("icon_type", site.iconType());
        body.put("icon", site.icon());
        body.put("icon_background", site.iconBackground());
        body.put("icon_url", site.iconUrl());
        body.put("description", site.description());
        body.put("copyright", site.copyright());
        body.put("privacy_policy", site.privacyPolicy());
        body.put("custom_disclaimer", site.customDisclaimer());
        body.put("default_language", site.defaultLanguage());
        body.put("show_workflow_steps", site.showWorkflowSteps());
        body.put("use_icon_as_answer_icon", site.useIconAsAnswerIcon());
        return body;
    }
}
