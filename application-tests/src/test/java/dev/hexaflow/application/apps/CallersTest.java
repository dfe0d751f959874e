package dev.hexaflow.application.apps;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hexaflow.adapters.persistence.memory.InMemoryAppKeyRepository;
import dev.hexaflow.adapters.persistence.memory.InMemoryAppRepository;
import dev.hexaflow.application.MovableClock;
import dev.hexaflow.application.apps.port.in.AuthenticateUseCase.Operation;
import dev.hexaflow.application.apps.port.in.Caller;
import dev.hexaflow.application.apps.port.in.WebAppUseCase.WebToken;
import dev.hexaflow.application.apps.service.AuthenticateService;
import dev.hexaflow.application.apps.service.UpdateSiteService;
import dev.hexaflow.application.apps.service.WebAppService;
import dev.hexaflow.application.apps.service.WebTokens;
import dev.hexaflow.application.common.ApiError;
import dev.hexaflow.application.common.ApiException;
import dev.hexaflow.domain.app.App;
import dev.hexaflow.domain.app.AppKey;
import dev.hexaflow.domain.app.SiteSettings;
import dev.hexaflow.domain.secret.SecretHash;
import dev.hexaflow.domain.workflow.AppInfo;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;

/**
 * Whom a bearer token speaks for, across two apps with a key each and their pages' tokens, on the in-memory app
 * and key repositories. The signer is a lambda hashing what it signs, so that a token of "another process" is
 * one signed by a lambda with another salt.
 */
class CallersTest {

    private static final String KEY_A = "app-" + "a".repeat(AppKey.RANDOM_LENGTH);
    private static final String KEY_B = "app-" + "b".repeat(AppKey.RANDOM_LENGTH);
    private static final String USER = "web-" + "0123456789abcdef".repeat(2);

    private final InMemoryAppRepository apps = new InMemoryAppRepository();
    private final InMemoryAppKeyRepository keys = new InMemoryAppKeyRepository();
    private final MovableClock clock = new MovableClock(Instant.parse("2026-03-01T10:00:00Z"));
    private final WebTokens tokens = tokens("here");
    private final WebAppService web = new WebAppService(apps, tokens);
    private final AuthenticateService authenticate = new AuthenticateService(keys, apps, tokens, java.time.Clock.systemUTC());

    CallersTest() {
        apps.add(app("app-a", "codeaaaa1"));
        apps.add(app("app-b", "codebbbb1"));
        keys.add(new AppKey(SecretHash.of(KEY_A), "app-a", 1));
        keys.add(new AppKey(SecretHash.of(KEY_B), "app-b", 1));
    }

    private WebTokens tokens(String salt) {
        return new WebTokens(message -> (salt + Arrays.hashCode(message)).getBytes(StandardCharsets.US_ASCII),
                clock);
    }

    private static App app(String id, String code) {
        return new App(id, "App " + id, "", AppInfo.WORKFLOW_MODE, "emoji", "🤖", "#FFF", List.of(),
                new SiteSettings("Title", "emoji", "🤖", "#FFF", null, "", "", "", "", "en-US", true, false), code,
                true, 1);
    }

    @Test
    void eachKeySpeaksForItsOwnAppForEveryOperation() {
        for (Operation operation : Operation.values()) {
            assertThat(authenticate.callerOf(KEY_A, operation))
                    .usingRecursiveComparison().ignoringFields("keyId").isEqualTo(Caller.appKey("app-a"));
            assertThat(authenticate.callerOf(KEY_B, operation))
                    .usingRecursiveComparison().ignoringFields("keyId").isEqualTo(Caller.appKey("app-b"));
        }
    }

    @Test
    void aPagesTokenIsForTheOperationsAPageDoesAndNamesWhatTheOthersNeed() {
        WebToken token = web.issueToken("codeaaaa1", USER);

        for (Operation open : List.of(Operation.RUN, Operation.STOP, Operation.UPLOAD, Operation.DESCRIBE,
                Operation.CHAT)) {
            assertThat(authenticate.callerOf(token.token(), open)).isEqualTo(Caller.page("app-a", USER));
        }
        assertRefused(() -> authenticate.callerOf(token.token(), Operation.RUN_ASYNC), ApiError.FORBIDDEN,
                "A web page's token cannot start an async run; use the app's API key.");
        assertRefused(() -> authenticate.callerOf(token.token(), Operation.NAME_CALLBACK), ApiError.FORBIDDEN,
                "A web page's token cannot name a callback_url; use the app's API key.");
    }

    @Test
    void aPagesTokenActsForTheAppOfThePageItCameFrom() {
        WebToken a = web.issueToken("codeaaaa1", USER);
        WebToken b = web.issueToken("codebbbb1", USER);

        assertThat(a.token()).isNotEqualTo(b.token());
        assertThat(authenticate.callerOf(a.token(), Operation.RUN).appId()).isEqualTo("app-a");
        assertThat(authenticate.callerOf(b.token(), Operation.RUN).appId()).isEqualTo("app-b");
    }

    @Test
    void aTokenStillServesUntilItsLastSecond() {
        WebToken token = web.issueToken("codeaaaa1", USER);

        clock.advance(Duration.ofHours(1).minusSeconds(1));

        assertThat(authenticate.callerOf(token.token(), Operation.RUN).pageUser()).isEqualTo(USER);
        assertThat(token.expiresAt()).isEqualTo(clock.instant().getEpochSecond() + 1);
    }

    @Test
    void aTokenWhosePageWasTurnedOffIsForbiddenUntilItIsTurnedOnAgain() {
        WebToken token = web.issueToken("codeaaaa1", USER);
        UpdateSiteService site = new UpdateSiteService(apps);

        site.enable("app-a", false);

        assertRefused(() -> authenticate.callerOf(token.token(), Operation.RUN), ApiError.FORBIDDEN,
                "This app's web page has been turned off.");
        assertThat(authenticate.callerOf(KEY_A, Operation.RUN))
                .usingRecursiveComparison().ignoringFields("keyId").isEqualTo(Caller.appKey("app-a"));
        site.enable("app-a", true);
        assertThat(authenticate.callerOf(token.token(), Operation.RUN).appId()).isEqualTo("app-a");
    }

    @Test
    void aTokenSignedByAnotherProcessIsInvalidHere() {
        WebToken elsewhere = new WebAppService(apps, tokens("there")).issueToken("codeaaaa1", USER);

        assertRefused(() -> authenticate.callerOf(elsewhere.token(), Operation.RUN), ApiError.UNAUTHORIZED,
                "Access token is invalid");
    }

    @Test
    void aTokenWhosePayloadWasChangedToAnotherAppIsInvalid() {
        WebToken token = web.issueToken("codeaaaa1", USER);
        String signature = token.token().substring(token.token().indexOf('.'));
        String forged = Base64.getUrlEncoder().withoutPadding().encodeToString((USER + ":app-b:"
                + token.expiresAt()).getBytes(StandardCharsets.UTF_8));

        assertRefused(() -> authenticate.callerOf("web-" + forged + signature, Operation.RUN),
                ApiError.UNAUTHORIZED, "Access token is invalid");
    }

    @Test
    void aTokenWithoutASignatureOrWithOneThatIsNoBase64IsInvalid() {
        WebToken token = web.issueToken("codeaaaa1", USER);
        String payload = token.token().substring(0, token.token().indexOf('.'));

        assertRefused(() -> authenticate.callerOf(payload, Operation.RUN), ApiError.UNAUTHORIZED,
                "Access token is invalid");
        assertRefused(() -> authenticate.callerOf(payload + ".%%%", Operation.RUN), ApiError.UNAUTHORIZED,
                "Access token is invalid");
    }

    @Test
    void aKeyActsForAnyUserItNamesWhileAPageTokenActsForItsOwnUserOnly() {
        Caller key = authenticate.callerOf(KEY_A, Operation.RUN);
        Caller page = authenticate.callerOf(web.issueToken("codeaaaa1", USER).token(), Operation.RUN);

        assertThat(key.userFor("anyone")).isEqualTo("anyone");
        assertThat(key.userFor(null)).isNull();
        assertThat(page.userFor(USER)).isEqualTo(USER);
        assertRefused(() -> page.userFor("web-" + "f".repeat(32)), ApiError.FORBIDDEN,
                "A web page's token acts for its own user only.");
        assertRefused(() -> page.userFor(null), ApiError.FORBIDDEN, "A web page's token acts for its own user only.");
    }

    private static void assertRefused(ThrowingCallable call, ApiError error, String message) {
        assertThatThrownBy(call).isInstanceOfSatisfying(ApiException.class, e -> {
            assertThat(e.error()).isEqualTo(error);
            assertThat(e.getMessage()).isEqualTo(message);
        });
    }
}
