package dev.hexaflow.adapters.persistence.jdbi;

import dev.hexaflow.application.webhooks.port.out.WebhookSettingsRepository;
import dev.hexaflow.domain.webhook.CallbackUrl;
import dev.hexaflow.domain.webhook.WebhookSettings;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.jdbi.v3.core.Jdbi;

/**
 * Apps' webhook settings in {@code app_webhook}, a row made when an app first has one. Every run asks for its
 * app's default callback, so the settings are read once and kept (an app without a row as having none) until
 * this repository writes them.
 */
public final class JdbiWebhookSettingsRepository implements WebhookSettingsRepository {

    private final Jdbi jdbi;
    private final ReadCache<String, WebhookSettings> cache;

    public JdbiWebhookSettingsRepository(Jdbi jdbi) {
        this.jdbi = jdbi;
        this.cache = new ReadCache<>(jdbi, "app_webhook", 10_000);
    }

    @Override
    public WebhookSettings find(String appId) {
        return cache.get(appId, app -> Optional.of(read(app))).orElseThrow();
    }

    private WebhookSettings read(String appId) {
        return jdbi.withHandle(handle -> handle.createQuery("SELECT default_callback, secret FROM app_webhook "
                + "WHERE app_id = :app_id").bind("app_id", appId)
                .map((rs, ctx) -> new WebhookSettings(appId, url(rs.getString("default_callback")),
                        rs.getString("secret")))
                .findOne().orElse(WebhookSettings.none(appId)));
    }

    @Override
    public void setDefaultCallback(String appId, CallbackUrl url) {
        jdbi.useTransaction(handle -> {
            ensureRow(handle, appId);
            handle.createUpdate("UPDATE app_webhook SET default_callback = :url WHERE app_id = :app_id")
                    .bind("url", url == null ? null : url.value()).bind("app_id", appId).execute();
        });
        cache.removed(appId);
    }

    @Override
    public void setSecret(String appId, String secret) {
        jdbi.useTransaction(handle -> {
            ensureRow(handle, appId);
            handle.createUpdate("UPDATE app_webhook SET secret = :secret WHERE app_id = :app_id")
                    .bind("secret", secret).bind("app_id", appId).execute();
        });
        cache.removed(appId);
    }

    @Override
    public String secretOrAdd(String appId, String candidate) {
        String secret = jdbi.inTransaction(handle -> {
            ensureRow(handle, appId);
            handle.createUpdate("UPDATE app_webhook SET secret = :secret WHERE app_id = :app_id AND secret IS NULL")
                    .bind("secret", candidate).bind("app_id", appId).execute();
            return handle.createQuery("SELECT secret FROM app_webhook WHERE app_id = :app_id").bind("app_id", appId)
                    .mapTo(String.class).one();
        });
        cache.removed(appId);
        return secret;
    }

    @Override
    public Map<String, CallbackUrl> defaultCallbacks() {
        Map<String, CallbackUrl> urls = new LinkedHashMap<>();
        jdbi.useHandle(handle -> handle.createQuery("SELECT app_id, default_callback FROM app_webhook WHERE "
                + "default_callback IS NOT NULL ORDER BY app_id")
                .map((rs, ctx) -> Map.entry(rs.getString(1), new CallbackUrl(rs.getString(2))))
                .forEach(entry -> urls.put(entry.getKey(), entry.getValue())));
        return urls;
    }

    /** The app's row, made empty if it has none; two makers at once: the second one's insert finds it made. */
    private static void ensureRow(org.jdbi.v3.core.Handle handle, String appId) {
        handle.createUpdate(SqlDialect.of(handle.getJdbi()).upsert("app_webhook", "app_id", "app_id", ":app_id")).bind("app_id", appId)
                .execute();
    }

    private static CallbackUrl url(String text) {
        return text == null ? null : new CallbackUrl(text);
    }
}
