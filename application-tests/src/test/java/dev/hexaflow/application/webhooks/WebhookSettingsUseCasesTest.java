package dev.hexaflow.application.webhooks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hexaflow.adapters.persistence.H2Database;
import dev.hexaflow.adapters.persistence.jdbi.JdbiAppRepository;
import dev.hexaflow.adapters.persistence.jdbi.JdbiDeliveryRepository;
import dev.hexaflow.adapters.persistence.jdbi.JdbiWebhookSettingsRepository;
import dev.hexaflow.application.MovableClock;
import dev.hexaflow.application.common.ApiError;
import dev.hexaflow.application.common.ApiException;
import dev.hexaflow.application.webhooks.port.in.ListDeliveriesUseCase.DeliveriesQuery;
import dev.hexaflow.application.webhooks.port.in.ListDeliveriesUseCase.DeliveryPage;
import dev.hexaflow.application.webhooks.port.in.ListDeliveriesUseCase.DeliveryWithAttempts;
import dev.hexaflow.application.webhooks.service.ListDeliveriesService;
import dev.hexaflow.application.webhooks.service.ManageWebhooksService;
import dev.hexaflow.application.webhooks.service.RunCallbacks;
import dev.hexaflow.domain.app.App;
import dev.hexaflow.domain.app.SiteSettings;
import dev.hexaflow.domain.webhook.CallbackUrl;
import dev.hexaflow.domain.webhook.Delivery;
import dev.hexaflow.domain.webhook.DeliveryState;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * An app's default callback and secret, and the list of its deliveries, on the real settings and delivery
 * repositories (H2 in memory: adapters-persistence ships no in-memory ones).
 */
class WebhookSettingsUseCasesTest {

    private static final String APP = "app-1";
    private static final String OTHER = "app-2";

    /** One database for the class, emptied before each test: migrating one takes seconds. */
    private static H2Database database;
    private final JdbiWebhookSettingsRepository settings = new JdbiWebhookSettingsRepository(database.jdbi());
    private final JdbiDeliveryRepository deliveries = new JdbiDeliveryRepository(database.jdbi());
    private final JdbiAppRepository apps = new JdbiAppRepository(database.jdbi());
    private final MovableClock clock = new MovableClock(Instant.parse("2026-03-01T10:00:00Z"));
    private final AtomicInteger drawn = new AtomicInteger();
    private final ManageWebhooksService webhooks = new ManageWebhooksService(apps, settings,
            length -> String.valueOf(drawn.incrementAndGet()).repeat(length).substring(0, length));
    private final ListDeliveriesService list = new ListDeliveriesService(apps, deliveries);
    private final RunCallbacks callbacks = new RunCallbacks(settings, deliveries, clock,
            () -> "delivery-" + drawn.incrementAndGet(), () -> { });

    @BeforeAll
    static void open() {
        database = H2Database.openInMemory("webhook-settings-" + UUID.randomUUID());
        JdbiAppRepository apps = new JdbiAppRepository(database.jdbi());
        for (String id : List.of(APP, OTHER)) {
            apps.add(new App(id, "App", "", "workflow", "emoji", "🤖", "#FFF", List.of(), new SiteSettings("App",
                    "emoji", "🤖", "#FFF", null, "", "", "", "", "en-US", true, false), "code" + id.replace("-", ""),
                    true, 1));
        }
    }

    @BeforeEach
    void empty() {
        database.jdbi().useHandle(handle -> {
            handle.execute("DELETE FROM webhook_delivery");
            handle.execute("DELETE FROM app_webhook");
        });
    }

    @AfterAll
    static void close() {
        database.close();
    }

    @Test
    void aDefaultCallbackIsKeptPerAppAndClearedWithNull() {
        assertThat(webhooks.setDefaultCallback(APP, "https://hooks.example/a")).contains("https://hooks.example/a");
        webhooks.setDefaultCallback(OTHER, "http://hooks.example/b");

        assertThat(webhooks.defaultCallback(APP)).contains("https://hooks.example/a");
        assertThat(webhooks.defaultCallbacks()).isEqualTo(Map.of(APP, "https://hooks.example/a", OTHER,
                "http://hooks.example/b"));
        assertThat(webhooks.setDefaultCallback(APP, null)).isEmpty();
        assertThat(webhooks.defaultCallback(APP)).isEmpty();
        assertThat(webhooks.defaultCallbacks()).containsOnlyKeys(OTHER);
    }

    @Test
    void aCallbackThatIsNoHttpUrlIsRefusedAndTheOldOneStays() {
        webhooks.setDefaultCallback(APP, "https://hooks.example/a");

        assertRefused(() -> webhooks.setDefaultCallback(APP, "ftp://hooks.example/a"), ApiError.INVALID_PARAM,
                "callback_url must be an http or https URL with a host");
        assertRefused(() -> webhooks.setDefaultCallback(APP, " "), ApiError.INVALID_PARAM,
                "callback_url must be an http or https URL");

        assertThat(webhooks.defaultCallback(APP)).contains("https://hooks.example/a");
    }

    @Test
    void settingsOfAnUnknownAppAreNotFound() {
        assertRefused(() -> webhooks.setDefaultCallback("app-none", "https://hooks.example/a"), ApiError.NOT_FOUND,
                "App not found.");
        assertRefused(() -> webhooks.rotateSecret("app-none"), ApiError.NOT_FOUND, "App not found.");
        assertThat(webhooks.defaultCallbacks()).isEmpty();
    }

    @Test
    void aRotatedSecretReplacesTheOldOneAndIsFortyEightCharacters() {
        String first = webhooks.rotateSecret(APP);
        String second = webhooks.rotateSecret(APP);

        assertThat(first).hasSize(48);
        assertThat(second).hasSize(48).isNotEqualTo(first);
        assertThat(settings.find(APP).secret()).isEqualTo(second);
    }

    @Test
    void deliveriesAreListedNewestFirstPageByPageAndOnlyTheAppsOwn() {
        CallbackUrl url = new CallbackUrl("https://hooks.example/runs");
        for (int i = 1; i <= 3; i++) {
            callbacks.register(APP, "run-" + i, url);
            clock.advance(Duration.ofSeconds(1));
        }
        callbacks.register(OTHER, "run-x", url);

        DeliveryPage first = list.list(new DeliveriesQuery(APP, 1, 2));
        DeliveryPage second = list.list(new DeliveriesQuery(APP, 2, 2));

        assertThat(first.items()).extracting(item -> item.delivery().runId()).containsExactly("run-3", "run-2");
        assertThat(first.total()).isEqualTo(3);
        assertThat(first.hasMore()).isTrue();
        assertThat(second.items()).extracting(item -> item.delivery().runId()).containsExactly("run-1");
        assertThat(second.hasMore()).isFalse();
    }

    @Test
    void aDeliveryIsListedAwaitingItsRunThenPendingOnceItEndsWithNoAttemptYet() {
        Delivery delivery = callbacks.register(APP, "run-1", new CallbackUrl("https://hooks.example/runs"));
        DeliveryWithAttempts before = list.list(new DeliveriesQuery(APP, 1, 10)).items().get(0);
        callbacks.runEnded(delivery);

        DeliveryWithAttempts after = list.list(new DeliveriesQuery(APP, 1, 10)).items().get(0);

        assertThat(before.delivery().state()).isEqualTo(DeliveryState.AWAITING_RUN);
        assertThat(after.delivery().state()).isEqualTo(DeliveryState.PENDING);
        assertThat(after.attempts()).isEmpty();
        assertThat(after.delivery().url().value()).isEqualTo("https://hooks.example/runs");
    }

    @Test
    void anUnknownAppOrAPageOutOfRangeIsRefused() {
        assertRefused(() -> list.list(new DeliveriesQuery("app-none", 1, 10)), ApiError.NOT_FOUND,
                "App not found.");
        assertRefused(() -> list.list(new DeliveriesQuery(APP, 0, 10)), ApiError.INVALID_PARAM,
                "page must be 1 or more and limit 1 to 100");
        assertRefused(() -> list.list(new DeliveriesQuery(APP, 1, 101)), ApiError.INVALID_PARAM,
                "page must be 1 or more and limit 1 to 100");
        assertThat(list.list(new DeliveriesQuery(APP, 1, 100)).items()).isEmpty();
    }

    private static void assertRefused(ThrowingCallable call, ApiError error, String message) {
        assertThatThrownBy(call).isInstanceOfSatisfying(ApiException.class, e -> {
            assertThat(e.error()).isEqualTo(error);
            assertThat(e.getMessage()).isEqualTo(message);
        });
    }

    @Test
    void aCallbackCarryingAUserNameOrPasswordIsRefused() {
        assertRefused(() -> webhooks.setDefaultCallback(APP, "https://ops:hunter2@hooks.example/a"),
                ApiError.INVALID_PARAM, "callback_url must not carry a user name or password");
        assertThat(webhooks.defaultCallback(APP)).isEmpty();
    }

    @Test
    void aCallbackOfTheLongestLengthIsKeptAndALongerOneRefused() {
        String longest = "https://hooks.example/" + "a".repeat(CallbackUrl.MAX_LENGTH - 22);

        assertThat(webhooks.setDefaultCallback(APP, longest)).contains(longest);
        assertRefused(() -> webhooks.setDefaultCallback(APP, longest + "a"), ApiError.INVALID_PARAM,
                "callback_url must be at most 2048 characters");
        assertThat(webhooks.defaultCallback(APP)).contains(longest);
    }

    @Test
    void aCallbackThatDoesNotParseOrHasNoHostIsRefusedSayingWhy() {
        assertRefused(() -> webhooks.setDefaultCallback(APP, "http://hooks example/"), ApiError.INVALID_PARAM,
                "callback_url is not a URL: Illegal character in authority");
        assertRefused(() -> webhooks.setDefaultCallback(APP, "https:///runs"), ApiError.INVALID_PARAM,
                "callback_url must be an http or https URL with a host");
        assertRefused(() -> webhooks.setDefaultCallback(APP, "/runs"), ApiError.INVALID_PARAM,
                "callback_url must be an http or https URL with a host");
    }

    @Test
    void clearingACallbackNeverSetIsQuietAndAnUnknownAppHasNone() {
        assertThat(webhooks.setDefaultCallback(APP, null)).isEmpty();
        assertThat(webhooks.defaultCallback(APP)).isEmpty();
        // Reading refuses nothing: an app that is not there simply has no callback.
        assertThat(webhooks.defaultCallback("app-none")).isEmpty();
    }

    @Test
    void theCallbackAndTheSecretAreSetApartEachLeavingTheOther() {
        String secret = webhooks.rotateSecret(APP);
        webhooks.setDefaultCallback(APP, "https://hooks.example/a");
        webhooks.setDefaultCallback(APP, null);
        webhooks.setDefaultCallback(APP, "https://hooks.example/b");
        webhooks.rotateSecret(APP);

        assertThat(settings.find(APP).defaultCallback()).isEqualTo(new CallbackUrl("https://hooks.example/b"));
        assertThat(settings.find(APP).secret()).isNotEqualTo(secret).hasSize(48);
    }

    @Test
    void aRunsOwnCallbackWinsOverTheAppsDefaultWhichServesWhenItNamesNone() {
        assertThat(callbacks.callbackOf(APP, null)).isNull();
        webhooks.setDefaultCallback(APP, "https://hooks.example/default");

        assertThat(callbacks.callbackOf(APP, "https://hooks.example/own").value())
                .isEqualTo("https://hooks.example/own");
        assertThat(callbacks.callbackOf(APP, null).value()).isEqualTo("https://hooks.example/default");
        assertThat(callbacks.callbackOf(OTHER, null)).isNull();
        assertThatThrownBy(() -> callbacks.callbackOf(APP, "ftp://hooks.example/own"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("callback_url must be an http or https URL with a host");
    }
}
