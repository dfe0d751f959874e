package dev.hexaflow.domain.app;

import java.util.List;

/**
 * A workflow app, made by importing a DSL file: what it shows of itself, its web page settings, and its tags.
 * Its published workflow versions are kept apart ({@link WorkflowVersion}).
 *
 * @param createdAt Unix seconds
 */
public record App(String id, String name, String description, String mode, String iconType, String icon,
        String iconBackground, List<String> tags, SiteSettings site, long createdAt) {

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
    }

    public App withSite(SiteSettings next) {
        return new App(id, name, description, mode, iconType, icon, iconBackground, tags, next, createdAt);
    }

    /** The same app as a newer DSL describes it: name, description and icon follow the file; the site stays. */
    public App describedAs(String newName, String newDescription, String newIconType, String newIcon,
            String newIconBackground) {
        return new App(id, newName, newDescription, mode, newIconType, newIcon, newIconBackground, tags, site,
                createdAt);
    }
}
