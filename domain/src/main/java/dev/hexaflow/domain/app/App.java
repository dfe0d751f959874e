package dev.hexaflow.domain.app;

import java.util.List;
import java.util.regex.Pattern;

/**
 * A workflow app, made by importing a DSL file: what it shows of itself, its web page settings, and its tags.
 * Its published workflow versions are kept apart ({@link WorkflowVersion}).
 *
 * @param siteCode the public code of the app's web page, {@code /apps/{siteCode}}
 * @param siteEnabled whether that page, and the tokens it hands out, are served
 * @param createdAt Unix seconds
 */
public record App(String id, String name, String description, String mode, String iconType, String icon,
        String iconBackground, List<String> tags, SiteSettings site, String siteCode, boolean siteEnabled,
        long createdAt) {

    /** How many letters and digits a new site code has. */
    public static final int SITE_CODE_LENGTH = 16;
    private static final Pattern SITE_CODE = Pattern.compile("[A-Za-z0-9]{4,32}");

    public App {
        if (id == null || id.isBlank()) {
            throw new IllegalArgumentException("an app needs an id");
        }
        name = name == null ? "" : name;
        description = description == null ? "" : description;
        mode = mode == null ? "workflow" : mode;
        iconType = iconType == null || iconType.isBlank() ? "emoji" : iconType;
        tags = tags == null ? List.of() : List.copyOf(tags);
        if (site == null) {
            throw new IllegalArgumentException("an app needs its site settings");
        }
        if (!looksLikeSiteCode(siteCode)) {
            throw new IllegalArgumentException("a site code is 4 to 32 letters and digits, was '" + siteCode + "'");
        }
    }

    /** Whether a text has the form of a site code; a text that does not names no page, without a lookup. */
    public static boolean looksLikeSiteCode(String text) {
        return text != null && SITE_CODE.matcher(text).matches();
    }

    public App withSite(SiteSettings next) {
        return new App(id, name, description, mode, iconType, icon, iconBackground, tags, next, siteCode,
                siteEnabled, createdAt);
    }

    /** The same app with its web page turned on or off. */
    public App withSiteEnabled(boolean enabled) {
        return new App(id, name, description, mode, iconType, icon, iconBackground, tags, site, siteCode, enabled,
                createdAt);
    }

    /** The same app as a newer DSL describes it: name, description and icon follow the file; the site stays. */
    public App describedAs(String newName, String newDescription, String newIconType, String newIcon,
            String newIconBackground) {
        return new App(id, newName, newDescription, mode, newIconType, newIcon, newIconBackground, tags, site,
                siteCode, siteEnabled, createdAt);
    }
}
