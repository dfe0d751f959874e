package dev.hexaflow.application.apps;

import static dev.hexaflow.application.apps.PublishAndDescribeTest.assertRefused;
import static org.assertj.core.api.Assertions.assertThat;

import dev.hexaflow.adapters.persistence.memory.InMemoryAppRepository;
import dev.hexaflow.application.MovableClock;
import dev.hexaflow.application.apps.port.in.WebAppUseCase.WebToken;
import dev.hexaflow.application.apps.service.UpdateSiteService;
import dev.hexaflow.application.apps.service.WebAppService;
import dev.hexaflow.application.apps.service.WebTokens;
import dev.hexaflow.application.common.ApiError;
import dev.hexaflow.domain.app.App;
import dev.hexaflow.domain.app.SiteSettings;
import dev.hexaflow.domain.workflow.AppInfo;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** An app's web page: its settings, turning it on and off, and the tokens it runs with, on the in-memory apps. */
class SiteUseCasesTest {

    private static final String NO_PAGE =
            "There is no web page here: the address is wrong, or the app's page has been turned off.";
    private static final String CODE = "sitecode1";

    private final InMemoryAppRepository apps = new InMemoryAppRepository();
    private final MovableClock clock = new MovableClock(Instant.parse("2026-03-01T10:00:00Z"));
    private final WebTokens tokens = new WebTokens(message -> ("sig" + Arrays.hashCode(message))
            .getBytes(StandardCharsets.US_ASCII), clock);
    private final UpdateSiteService site = new UpdateSiteService(apps);
    private final WebAppService web = new WebAppService(apps, tokens);

    SiteUseCasesTest() {
        apps.add(new App("app-1", "Echo", "", AppInfo.WORKFLOW_MODE, "emoji", "🤖", "#FFF", List.of(),
                settings("Echo", "desc"), CODE, true, 1));
    }

    private static SiteSettings settings(String title, String description) {
        return new SiteSettings(title, "emoji", "🤖", "#FFF", null, description, "©", "https://p", "", "en-US",
                true, false);
    }

    @Test
    void newSettingsReplaceTheOldOnesWhole() {
        SiteSettings next = settings("Weather bot", "Asks the sky");

        SiteSettings answered = site.update("app-1", next);

        assertThat(answered).isEqualTo(next);
        assertThat(apps.find("app-1").orElseThrow().site()).isEqualTo(next);
        assertThat(web.open(CODE).site().title()).isEqualTo("Weather bot");
    }

    @Test
    void aFieldTooLongIsRefusedNamingItAndTheOldSettingsStay() {
        SiteSettings before = apps.find("app-1").orElseThrow().site();

        assertRefused(() -> site.update("app-1", settings("t".repeat(1001), "")), ApiError.INVALID_PARAM,
                "title must be at most 1000 characters.");
        assertRefused(() -> site.update("app-1", settings("ok", "d".repeat(4001))), ApiError.INVALID_PARAM,
                "description must be at most 4000 characters.");

        assertThat(apps.find("app-1").orElseThrow().site()).isEqualTo(before);
    }

    @Test
    void aDescriptionMayBeLongerThanAShortField() {
        site.update("app-1", settings("ok", "d".repeat(4000)));

        assertThat(apps.find("app-1").orElseThrow().site().description()).hasSize(4000);
    }

    @Test
    void settingsOrTheSwitchOfAnUnknownAppAreNotFound() {
        assertRefused(() -> site.update("app-none", settings("x", "")), ApiError.NOT_FOUND, "App not found.");
        assertRefused(() -> site.enable("app-none", false), ApiError.NOT_FOUND, "App not found.");
    }

    @Test
    void aPageTurnedOffIsNotFoundByItsCodeUntilTurnedOnAgain() {
        App off = site.enable("app-1", false);

        assertThat(off.siteEnabled()).isFalse();
        assertRefused(() -> web.open(CODE), ApiError.NOT_FOUND, NO_PAGE);
        assertRefused(() -> web.issueToken(CODE, null), ApiError.NOT_FOUND, NO_PAGE);
        site.enable("app-1", true);
        assertThat(web.open(CODE).id()).isEqualTo("app-1");
    }

    @Test
    void aCodeNoAppHasOrOneNotShapedAsACodeOpensNoPage() {
        assertRefused(() -> web.open("othercode1"), ApiError.NOT_FOUND, NO_PAGE);
        assertRefused(() -> web.open("no"), ApiError.NOT_FOUND, NO_PAGE);
        assertRefused(() -> web.open("../../etc"), ApiError.NOT_FOUND, NO_PAGE);
    }

    @Test
    void aPagesTokenKeepsAWebUserOfThePagesOwnFormAndReplacesAnyOtherId() {
        String pageUser = "web-" + "0123456789abcdef".repeat(2);

        WebToken kept = web.issueToken(CODE, pageUser);
        WebToken replaced = web.issueToken(CODE, "alice@example.com");
        WebToken fresh = web.issueToken(CODE, null);

        assertThat(kept.user()).isEqualTo(pageUser);
        assertThat(replaced.user()).matches("web-[0-9a-f]{32}").isNotEqualTo(fresh.user());
        assertThat(fresh.user()).matches("web-[0-9a-f]{32}");
        assertThat(kept.appId()).isEqualTo("app-1");
    }

    @Test
    void aTokenExpiresAnHourAfterItIsIssued() {
        WebToken first = web.issueToken(CODE, null);
        clock.advance(Duration.ofMinutes(10));
        WebToken later = web.issueToken(CODE, null);

        assertThat(first.expiresAt()).isEqualTo(clock.instant().minus(Duration.ofMinutes(10))
                .plus(Duration.ofHours(1)).getEpochSecond());
        assertThat(later.expiresAt() - first.expiresAt()).isEqualTo(600);
        assertThat(first.token()).startsWith("web-").isNotEqualTo(later.token());
    }
}
