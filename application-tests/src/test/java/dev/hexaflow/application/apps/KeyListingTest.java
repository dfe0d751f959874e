package dev.hexaflow.application.apps;

import static dev.hexaflow.application.apps.PublishAndDescribeTest.assertRefused;
import static org.assertj.core.api.Assertions.assertThat;

import dev.hexaflow.adapters.persistence.memory.InMemoryAppKeyRepository;
import dev.hexaflow.adapters.persistence.memory.InMemoryAppRepository;
import dev.hexaflow.application.EchoWorkflow;
import dev.hexaflow.application.MovableClock;
import dev.hexaflow.application.apps.port.in.AuthenticateUseCase.Operation;
import dev.hexaflow.application.apps.port.in.Caller;
import dev.hexaflow.application.apps.port.in.ManageAppKeysUseCase.KeyInfo;
import dev.hexaflow.application.apps.service.AuthenticateService;
import dev.hexaflow.application.apps.service.ManageAppKeysService;
import dev.hexaflow.application.apps.service.Publications;
import dev.hexaflow.application.apps.service.UpdateSiteService;
import dev.hexaflow.application.apps.service.WebAppService;
import dev.hexaflow.application.apps.service.WebTokens;
import dev.hexaflow.application.common.ApiError;
import dev.hexaflow.domain.app.App;
import dev.hexaflow.domain.app.AppKey;
import dev.hexaflow.domain.app.SiteSettings;
import dev.hexaflow.domain.secret.SecretHash;
import dev.hexaflow.domain.workflow.AppInfo;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * An operator listing an app's keys and revoking one by the id the list shows, on the in-memory app and key
 * repositories; authenticating with a key marks when it was last used, on the same movable clock. Keys are drawn
 * as {@code app-} and a counter, so a test knows each one's hint.
 */
class KeyListingTest {

    private static final long START = Instant.parse("2026-03-01T10:00:00Z").getEpochSecond();

    private final InMemoryAppRepository apps = new InMemoryAppRepository();
    private final InMemoryAppKeyRepository keys = new InMemoryAppKeyRepository();
    private final MovableClock clock = new MovableClock(Instant.ofEpochSecond(START));
    private final AtomicInteger drawn = new AtomicInteger();
    private final Publications publications = new Publications(dsl -> EchoWorkflow.named("Echo"),
            EchoWorkflow.engine(), keys, length -> String.format("%0" + length + "d", drawn.incrementAndGet()),
            clock, () -> "id-" + drawn.incrementAndGet());
    private final ManageAppKeysService appKeys = new ManageAppKeysService(publications, apps, keys);
    private final WebTokens tokens = new WebTokens(message -> "sig".getBytes(StandardCharsets.US_ASCII), clock);
    private final AuthenticateService authenticate = new AuthenticateService(keys, apps, tokens, clock);

    KeyListingTest() {
        apps.add(app("app-a"));
        apps.add(app("app-b"));
    }

    private static App app(String id) {
        return new App(id, "App " + id, "", AppInfo.WORKFLOW_MODE, "emoji", "🤖", "#FFF", List.of(),
                new SiteSettings("Title", "emoji", "🤖", "#FFF", null, "", "", "", "", "en-US", true, false),
                "code" + id.replace("-", "") + "1", true, 1);
    }

    @Test
    void keysAreListedOldestFirstByIdAndHintNeverWhole() {
        String first = appKeys.issue("app-a");
        clock.advance(Duration.ofMinutes(5));
        String second = appKeys.issue("app-a");

        List<KeyInfo> listed = appKeys.list("app-a");

        assertThat(listed).extracting(KeyInfo::hint).containsExactly(AppKey.hintOf(first), AppKey.hintOf(second));
        assertThat(listed).extracting(KeyInfo::createdAt).containsExactly(START, START + 300);
        assertThat(listed).extracting(KeyInfo::id).allSatisfy(id -> assertThat(id).hasSize(12)
                .isEqualTo(id.replaceAll("[^0-9a-f]", ""))).doesNotHaveDuplicates();
        assertThat(listed.toString()).doesNotContain(first).doesNotContain(second);
    }

    @Test
    void aKeyIsListedUnusedUntilItAuthenticatesThenWithTheLatestUse() {
        String key = appKeys.issue("app-a");
        assertThat(appKeys.list("app-a").get(0).lastUsedAt()).isNull();

        clock.advance(Duration.ofMinutes(1));
        authenticate.callerOf(key, Operation.RUN);
        clock.advance(Duration.ofMinutes(1));
        authenticate.callerOf(key, Operation.READ_RUNS);

        assertThat(appKeys.list("app-a").get(0).lastUsedAt()).isEqualTo(START + 120);
    }

    @Test
    void aKeyRevokedByItsListedIdNoLongerAuthenticatesAndTheOtherStillDoes() {
        String kept = appKeys.issue("app-a");
        String revoked = appKeys.issue("app-a");
        String id = appKeys.list("app-a").stream().filter(info -> info.hint().equals(AppKey.hintOf(revoked)))
                .findFirst().orElseThrow().id();

        appKeys.revoke("app-a", id);

        assertThat(appKeys.list("app-a")).extracting(KeyInfo::hint).containsExactly(AppKey.hintOf(kept));
        assertRefused(() -> authenticate.callerOf(revoked, Operation.RUN), ApiError.UNAUTHORIZED,
                "Access token is invalid");
        assertThat(authenticate.callerOf(kept, Operation.RUN))
                .usingRecursiveComparison().ignoringFields("keyId").isEqualTo(Caller.appKey("app-a"));
        assertRefused(() -> appKeys.revoke("app-a", id), ApiError.NOT_FOUND, "The app has no such key.");
    }

    @Test
    void anIdOfAnotherAppsKeyRevokesNothing() {
        appKeys.issue("app-a");
        String bKey = appKeys.issue("app-b");
        String bId = appKeys.list("app-b").get(0).id();

        assertRefused(() -> appKeys.revoke("app-a", bId), ApiError.NOT_FOUND, "The app has no such key.");

        assertThat(appKeys.list("app-b")).hasSize(1);
        assertThat(authenticate.callerOf(bKey, Operation.RUN).appId()).isEqualTo("app-b");
    }

    /** Only a whole id names a key: a part of one, or more, is no id, whatever it starts with. */
    @Test
    void anIdCutShortOrTooLongOrNoneIsNoKeyOfTheApp() {
        appKeys.issue("app-a");
        String id = appKeys.list("app-a").get(0).id();

        for (String wrong : new String[] {id.substring(0, 11), id + "0", "", null}) {
            assertRefused(() -> appKeys.revoke("app-a", wrong), ApiError.NOT_FOUND, "The app has no such key.");
        }
        assertThat(appKeys.list("app-a")).hasSize(1);
    }

    @Test
    void anAppWithoutKeysListsNoneAndAnUnknownAppIsNotFound() {
        assertThat(appKeys.list("app-b")).isEmpty();
        assertRefused(() -> appKeys.list("app-none"), ApiError.NOT_FOUND, "App not found.");
    }

    /** Keys issued before hints were kept still list, by id, and revoke by it. */
    @Test
    void aKeyKeptWithoutAHintIsListedWithoutOneAndRevokedByItsId() {
        String old = "app-" + "k".repeat(AppKey.RANDOM_LENGTH);
        keys.add(new AppKey(SecretHash.of(old), "app-a", 10));

        KeyInfo listed = appKeys.list("app-a").get(0);
        appKeys.revoke("app-a", listed.id());

        assertThat(listed.hint()).isNull();
        assertThat(listed.createdAt()).isEqualTo(10);
        assertThat(listed.id()).isEqualTo(SecretHash.of(old).hex().substring(0, 12));
        assertRefused(() -> authenticate.callerOf(old, Operation.RUN), ApiError.UNAUTHORIZED,
                "Access token is invalid");
    }

    /** An expired token is told expired before anything else, and a page turned off before what it may do. */
    @Test
    void aPagesTokenIsCheckedForItsEndThenItsPageThenTheOperation() {
        WebAppService web = new WebAppService(apps, tokens);
        String token = web.issueToken("codeappa1", null).token();
        new UpdateSiteService(apps).enable("app-a", false);

        assertRefused(() -> authenticate.callerOf(token, Operation.RUN_ASYNC), ApiError.FORBIDDEN,
                "This app's web page has been turned off.");
        clock.advance(Duration.ofHours(2));
        assertRefused(() -> authenticate.callerOf(token, Operation.RUN_ASYNC), ApiError.UNAUTHORIZED,
                "Access token has expired");
    }
}
