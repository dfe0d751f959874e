package dev.hexaflow.application.apps;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hexaflow.adapters.persistence.memory.InMemoryAppKeyRepository;
import dev.hexaflow.adapters.persistence.memory.InMemoryAppRepository;
import dev.hexaflow.adapters.persistence.memory.InMemoryWorkflowVersionRepository;
import dev.hexaflow.application.EchoWorkflow;
import dev.hexaflow.application.MovableClock;
import dev.hexaflow.application.apps.port.in.ImportAppUseCase.ImportedApp;
import dev.hexaflow.application.apps.service.ImportAppService;
import dev.hexaflow.application.apps.service.Publications;
import dev.hexaflow.application.common.ApiError;
import dev.hexaflow.application.common.ApiException;
import dev.hexaflow.domain.app.App;
import dev.hexaflow.domain.app.SiteSettings;
import dev.hexaflow.domain.secret.SecretHash;
import dev.hexaflow.domain.workflow.AppInfo;
import dev.hexaflow.domain.workflow.InvalidWorkflowException;
import dev.hexaflow.domain.workflow.Workflow;
import dev.hexaflow.domain.workflow.WorkflowProblem;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * Importing apps on the in-memory app, version and key repositories and the real engine's checks: what the app's
 * page starts with, and each way a file is refused. The DSL reader is a lambda answering {@link #workflow}, or
 * throwing what {@link #workflow} throws, as a reader of a broken file would.
 */
class ImportAppTest {

    private static final byte[] DSL = "app:\n  name: Echo\n".getBytes(StandardCharsets.UTF_8);

    private final InMemoryAppRepository apps = new InMemoryAppRepository();
    private final InMemoryWorkflowVersionRepository versions = new InMemoryWorkflowVersionRepository();
    private final InMemoryAppKeyRepository keys = new InMemoryAppKeyRepository();
    private final MovableClock clock = new MovableClock(Instant.parse("2026-03-01T10:00:00Z"));
    private final AtomicInteger drawn = new AtomicInteger();
    private Supplier<Workflow> workflow = () -> EchoWorkflow.named("Echo");
    private final ImportAppService importer = new ImportAppService(new Publications(dsl -> workflow.get(),
            EchoWorkflow.engine(), keys, length -> String.format("%0" + length + "d", drawn.incrementAndGet()),
            clock, () -> "id-" + drawn.incrementAndGet()), apps, versions);

    /** The echo workflow under other app information. */
    private static Workflow echo(AppInfo info) {
        Workflow echo = EchoWorkflow.named(info.name());
        return new Workflow(info, echo.dslVersion(), echo.graph(), echo.features(), echo.environmentVariables(),
                echo.conversationVariables());
    }

    private static AppInfo info(String name, String icon, String iconType, String background, String description) {
        return new AppInfo(name, AppInfo.WORKFLOW_MODE, icon, iconType, background, description, true);
    }

    @Test
    void theAppsPageStartsOnWithItsTitleIconAndDescriptionFromTheFile() {
        workflow = () -> echo(info("Weather", "⛅", "emoji", "#E0F2FE", "Tells the weather"));

        ImportedApp imported = importer.importApp(DSL);

        App app = apps.find(imported.appId()).orElseThrow();
        SiteSettings site = app.site();
        assertThat(app.siteEnabled()).isTrue();
        assertThat(site.title()).isEqualTo("Weather");
        assertThat(site.icon()).isEqualTo("⛅");
        assertThat(site.iconBackground()).isEqualTo("#E0F2FE");
        assertThat(site.description()).isEqualTo("Tells the weather");
        assertThat(site.useIconAsAnswerIcon()).isTrue();
        assertThat(app.mode()).isEqualTo(AppInfo.WORKFLOW_MODE);
        assertThat(app.createdAt()).isEqualTo(clock.instant().getEpochSecond());
    }

    @Test
    void anImageIconStaysAnImageAndAnyOtherIconTypeIsAnEmoji() {
        workflow = () -> echo(info("Pic", "https://icons/p.png", "image", "#FFF", ""));
        App image = apps.find(importer.importApp(DSL).appId()).orElseThrow();
        workflow = () -> echo(info("Odd", "?", "sticker", "#FFF", ""));
        App other = apps.find(importer.importApp(DSL).appId()).orElseThrow();

        assertThat(image.iconType()).isEqualTo("image");
        assertThat(image.site().iconType()).isEqualTo("image");
        assertThat(other.iconType()).isEqualTo("emoji");
    }

    @Test
    void theSameFileImportedTwiceIsTwoAppsEachWithItsOwnVersionKeyAndPage() {
        ImportedApp first = importer.importApp(DSL);
        ImportedApp second = importer.importApp(DSL);

        assertThat(second.appId()).isNotEqualTo(first.appId());
        assertThat(second.workflowId()).isNotEqualTo(first.workflowId());
        assertThat(second.apiKey()).isNotEqualTo(first.apiKey());
        assertThat(second.siteCode()).isNotEqualTo(first.siteCode());
        assertThat(apps.list()).hasSize(2);
        assertThat(keys.find(SecretHash.of(second.apiKey())).orElseThrow().appId()).isEqualTo(second.appId());
    }

    @Test
    void theFirstVersionIsNamedByTheTimeOfItsImport() {
        clock.advance(Duration.ofMillis(1234));

        ImportedApp imported = importer.importApp(DSL);

        assertThat(versions.latest(imported.appId()).orElseThrow().version())
                .isEqualTo("2026-03-01 10:00:01.234000");
    }

    @Test
    void aFileTheReaderRefusesIsRefusedWithItsProblemsAndKeepsNothing() {
        InvalidWorkflowException broken = new InvalidWorkflowException(List.of(WorkflowProblem.ofFile(
                "graph.nodes is missing")));
        workflow = () -> {
            throw broken;
        };

        assertThatThrownBy(() -> importer.importApp(DSL)).isSameAs(broken);

        assertThat(apps.list()).isEmpty();
        assertThat(drawn).as("no id, key nor site code drawn").hasValue(0);
    }

    @Test
    void aWorkflowTheEnginesChecksRefuseKeepsNothing() {
        workflow = () -> new Workflow(info("Broken", null, null, null, ""), "0.3.0",
                new dev.hexaflow.domain.workflow.Graph(List.of(), List.of()), null, List.of());

        assertThatThrownBy(() -> importer.importApp(DSL)).isInstanceOf(InvalidWorkflowException.class);

        assertThat(apps.list()).isEmpty();
    }

    @Test
    void eachOverlongFieldOfTheAppIsRefusedNamingIt() {
        assertTooLong(info("Echo", "🤖", "emoji", "#FFF", "d".repeat(20_001)), "app.description", 20_000);
        assertTooLong(info("Echo", "i".repeat(2001), "emoji", "#FFF", ""), "app.icon", 2000);
        assertTooLong(info("Echo", "🤖", "emoji", "#".repeat(101), ""), "app.icon_background", 100);

        assertThat(apps.list()).isEmpty();
    }

    @Test
    void fieldsAtTheirLimitsAreKept() {
        workflow = () -> echo(info("n".repeat(1000), "i".repeat(2000), "emoji", "#".repeat(100),
                "d".repeat(20_000)));

        App app = apps.find(importer.importApp(DSL).appId()).orElseThrow();

        assertThat(app.name()).hasSize(1000);
        assertThat(app.description()).hasSize(20_000);
    }

    private void assertTooLong(AppInfo info, String field, int limit) {
        workflow = () -> echo(info);
        assertThatThrownBy(() -> importer.importApp(DSL)).isInstanceOfSatisfying(ApiException.class, e -> {
            assertThat(e.error()).isEqualTo(ApiError.INVALID_PARAM);
            assertThat(e.getMessage()).isEqualTo(field + " must be at most " + limit + " characters.");
        });
    }
}
