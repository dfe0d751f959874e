package dev.hexaflow.adapters.persistence.jdbi;

import dev.hexaflow.application.apps.port.out.AppRepository;
import dev.hexaflow.domain.app.App;
import dev.hexaflow.domain.app.SiteSettings;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jdbi.v3.core.Jdbi;
import org.jdbi.v3.core.statement.Update;

/** Apps in the {@code app} table, site settings and tags as JSON text; apps read are kept in memory as well. */
public final class JdbiAppRepository implements AppRepository {

    private final Jdbi jdbi;
    private final ReadCache<String, App> cache;
    private final ReadCache<String, String> siteCodes;

    public JdbiAppRepository(Jdbi jdbi) {
        this.jdbi = jdbi;
        this.cache = new ReadCache<>(jdbi, "app", 10_000);
        this.siteCodes = new ReadCache<>(jdbi, "app_site_code", 10_000);
    }

    @Override
    public void add(App app) {
        jdbi.useHandle(handle -> bind(handle.createUpdate("INSERT INTO app (id, name, description, mode, icon_type, "
                + "icon, icon_background, tags, site, site_code, site_enabled, created_at) VALUES (:id, :name, "
                + ":description, :mode, :icon_type, :icon, :icon_background, :tags, :site, :site_code, :site_enabled, "
                + ":created_at)"), app).execute());
        cache.keep(app.id(), app);
    }

    @Override
    public void update(App app) {
        int updated = jdbi.withHandle(handle -> bind(handle.createUpdate("UPDATE app SET name = :name, "
                + "description = :description, mode = :mode, icon_type = :icon_type, icon = :icon, icon_background = "
                + ":icon_background, tags = :tags, site = :site, site_code = :site_code, site_enabled = :site_enabled, "
                + "created_at = :created_at WHERE id = :id"), app)
                .execute());
        if (updated > 0) {
            cache.changed(app.id(), app);
        }
    }

    private static Update bind(Update update, App app) {
        return update.bind("id", app.id()).bind("name", app.name()).bind("description", app.description())
                .bind("mode", app.mode()).bind("icon_type", app.iconType()).bind("icon", app.icon())
                .bind("icon_background", app.iconBackground()).bind("tags", JsonColumns.write(app.tags()))
                .bind("site", JsonColumns.write(site(app.site()))).bind("site_code", app.siteCode())
                .bind("site_enabled", app.siteEnabled()).bind("created_at", app.createdAt());
    }

    @Override
    public Optional<App> find(String id) {
        return cache.get(id, this::read);
    }

    private Optional<App> read(String id) {
        return jdbi.withHandle(handle -> handle.createQuery("SELECT * FROM app WHERE id = :id").bind("id", id)
                .map((rs, ctx) -> read(rs)).findOne());
    }

    /** A site code names one app for good (codes are made once and never change), so it is kept once read. */
    @Override
    public Optional<App> findBySiteCode(String code) {
        return siteCodes.get(code, this::readIdOfCode).flatMap(this::find);
    }

    private Optional<String> readIdOfCode(String code) {
        return jdbi.withHandle(handle -> handle.createQuery("SELECT id FROM app WHERE site_code = :code")
                .bind("code", code).mapTo(String.class).findOne());
    }

    @Override
    public List<App> list() {
        return jdbi.withHandle(handle -> handle.createQuery("SELECT * FROM app ORDER BY created_at, id")
                .map((rs, ctx) -> read(rs)).list());
    }

    @SuppressWarnings("unchecked")
    private static App read(ResultSet rs) throws SQLException {
        List<String> tags = (List<String>) JsonColumns.read(rs.getString("tags"));
        return new App(rs.getString("id"), rs.getString("name"), rs.getString("description"), rs.getString("mode"),
                rs.getString("icon_type"), rs.getString("icon"), rs.getString("icon_background"), tags,
                site(JsonColumns.readMap(rs.getString("site"))), rs.getString("site_code"),
                rs.getBoolean("site_enabled"), rs.getLong("created_at"));
    }

    static Map<String, Object> site(SiteSettings site) {
        Map<String, Object> map = new LinkedHashMap<>();
        map.put("title", site.title());
        map.put("icon_type", site.iconType());
        map.put("icon", site.icon());
        map.put("icon_background", site.iconBackground());
        map.put("icon_url", site.iconUrl());
        map.put("description", site.description());
        map.put("copyright", site.copyright());
        map.put("privacy_policy", site.privacyPolicy());
        map.put("custom_disclaimer", site.customDisclaimer());
        map.put("default_language", site.defaultLanguage());
        map.put("show_workflow_steps", site.showWorkflowSteps());
        map.put("use_icon_as_answer_icon", site.useIconAsAnswerIcon());
        return map;
    }

    static SiteSettings site(Map<String, Object> map) {
        return new SiteSettings(text(map, "title"), text(map, "icon_type"), text(map, "icon"),
                text(map, "icon_background"), text(map, "icon_url"), text(map, "description"), text(map, "copyright"),
                text(map, "privacy_policy"), text(map, "custom_disclaimer"), text(map, "default_language"),
                Boolean.TRUE.equals(map.get("show_workflow_steps")),
                Boolean.TRUE.equals(map.get("use_icon_as_answer_icon")));
    }

    private static String text(Map<String, Object> map, String key) {
        Object value = map.get(key);
        return value == null ? null : String.valueOf(value);
    }
}
