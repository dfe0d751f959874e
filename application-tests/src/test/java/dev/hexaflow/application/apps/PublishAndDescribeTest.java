package dev.hexaflow.application.apps;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hexaflow.adapters.persistence.memory.InMemoryAppKeyRepository;
import dev.hexaflow.adapters.persistence.memory.InMemoryAppRepository;
import dev.hexaflow.adapters.persistence.memory.InMemoryWorkflowVersionRepository;
import dev.hexaflow.application.EchoWorkflow;
import dev.hexaflow.application.MovableClock;
import dev.hexaflow.application.apps.port.in.DescribeAppUseCase.AppParameters;
import dev.hexaflow.application.apps.port.in.ExportDslQuery;
import dev.hexaflow.application.apps.port.in.ExportDslUseCase.ExportedDsl;
import dev.hexaflow.application.apps.port.in.ImportAppUseCase.ImportedApp;
import dev.hexaflow.application.apps.port.in.ListAppsUseCase.AppSummary;
import dev.hexaflow.application.apps.port.in.PublishWorkflowUseCase.Published;
import dev.hexaflow.application.apps.service.DescribeAppService;
import dev.hexaflow.application.apps.service.ExportDslService;
import dev.hexaflow.application.apps.service.ImportAppService;
import dev.hexaflow.application.apps.service.ListAppsService;
import dev.hexaflow.application.apps.service.Publications;
import dev.hexaflow.application.apps.service.PublishWorkflowService;
import dev.hexaflow.application.common.ApiError;
import dev.hexaflow.application.common.ApiException;
import dev.hexaflow.domain.app.App;
import dev.hexaflow.domain.app.SiteSettings;
import dev.hexaflow.domain.app.UploadLimits;
import dev.hexaflow.domain.app.WorkflowVersion;
import dev.hexaflow.domain.secret.SecretHash;
import dev.hexaflow.domain.workflow.AppInfo;
import dev.hexaflow.domain.workflow.Graph;
import dev.hexaflow.domain.workflow.InputField;
import dev.hexaflow.domain.workflow.InvalidWorkflowException;
import dev.hexaflow.domain.workflow.Workflow;
import dev.hexaflow.workflow.port.out.WorkflowDslReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;

/**
 * Publishing new versions of an app, listing, describing and exporting apps, on the in-memory app, version and key
 * repositories and the real engine's checks. The fake DSL reader reads a file's text as its app's name; the text
 * {@code broken} reads as a workflow without nodes, which the engine's checks refuse.
 */
class PublishAndDescribeTest {

    private final InMemoryAppRepository apps = new InMemoryAppRepository();
    private final InMemoryWorkflowVersionRepository versions = new InMemoryWorkflowVersionRepository();
    private final MovableClock clock = new MovableClock(Instant.parse("2026-03-01T10:00:00Z"));
    private final AtomicInteger drawn = new AtomicInteger();
    private final WorkflowDslReader reader = dsl -> {
        String text = new String(dsl, StandardCharsets.UTF_8);
        return text.equals("broken") ? new Workflow(new AppInfo("Broken", AppInfo.WORKFLOW_MODE, null, null, null,
                "", false), "0.3.0", new Graph(List.of(), List.of()), null, List.of()) : EchoWorkflow.named(text);
    };
    private final Publications publications = new Publications(reader, EchoWorkflow.engine(),
            new InMemoryAppKeyRepository(), length -> String.format("%0" + length + "d", drawn.incrementAndGet()),
            clock, () -> "id-" + drawn.incrementAndGet());
    private final ImportAppService importer = new ImportAppService(publications, apps, versions);
    private final PublishWorkflowService publish = new PublishWorkflowService(publications, apps, versions);
    private final ListAppsService list = new ListAppsService(apps, versions, publications);
    private final DescribeAppService describe = new DescribeAppService(apps, versions, reader, UploadLimits.DIFY);
    private final ExportDslService export = new ExportDslService(apps, versions);

    private static byte[] dsl(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void aChangedFileBecomesTheNewestVersionAndRenamesTheApp() {
        ImportedApp app = importer.importApp(dsl("Echo"));
        clock.advance(Duration.ofMinutes(1));

        Published published = publish.publish(app.appId(), dsl("Echo Two"));

        assertThat(published.isNew()).isTrue();
        assertThat(published.workflowId()).isNotEqualTo(app.workflowId());
        assertThat(published.version()).isEqualTo("2026-03-01 10:01:00.000000");
        assertThat(versions.latest(app.appId()).orElseThrow().id()).isEqualTo(published.workflowId());
        assertThat(apps.find(app.appId()).orElseThrow().name()).isEqualTo("Echo Two");
    }

    @Test
    void theFileOfTheCurrentVersionAgainPublishesNothingNew() {
        ImportedApp app = importer.importApp(dsl("Echo"));

        Published again = publish.publish(app.appId(), dsl("Echo"));

        assertThat(again.isNew()).isFalse();
        assertThat(again.workflowId()).isEqualTo(app.workflowId());
        assertThat(versions.latest(app.appId()).orElseThrow().id()).isEqualTo(app.workflowId());
    }

    @Test
    void aFileTheChecksRefuseOrAnUnknownAppPublishesNothing() {
        ImportedApp app = importer.importApp(dsl("Echo"));

        assertThatThrownBy(() -> publish.publish(app.appId(), dsl("broken")))
                .isInstanceOf(InvalidWorkflowException.class);
        assertRefused(() -> publish.publish("app-none", dsl("Echo Two")), ApiError.NOT_FOUND, "App not found.");
        assertRefused(() -> publish.publish(app.appId(), dsl("x".repeat(1001))), ApiError.INVALID_PARAM,
                "app.name must be at most 1000 characters.");

        assertThat(versions.latest(app.appId()).orElseThrow().id()).isEqualTo(app.workflowId());
        assertThat(apps.find(app.appId()).orElseThrow().name()).isEqualTo("Echo");
    }

    @Test
    void theListShowsEachAppWithItsNewestVersionAndNoWarningsForAWorkflowThatNeedsNothing() {
        ImportedApp first = importer.importApp(dsl("First"));
        ImportedApp second = importer.importApp(dsl("Second"));
        Published newer = publish.publish(second.appId(), dsl("Second Again"));

        List<AppSummary> summaries = list.list();

        assertThat(summaries).extracting(AppSummary::appId).containsExactlyInAnyOrder(first.appId(),
                second.appId());
        AppSummary summary = summaries.stream().filter(s -> s.appId().equals(second.appId())).findFirst()
                .orElseThrow();
        assertThat(summary.workflowId()).isEqualTo(newer.workflowId());
        assertThat(summary.name()).isEqualTo("Second Again");
        assertThat(summary.mode()).isEqualTo(AppInfo.WORKFLOW_MODE);
        assertThat(summary.siteCode()).isEqualTo(second.siteCode());
        assertThat(summary.warnings()).isEmpty();
    }

    @Test
    void aKeptVersionTheChecksNowRefuseIsListedWithAWarningSayingSo() {
        ImportedApp app = importer.importApp(dsl("Echo"));
        versions.add(new WorkflowVersion("ver-old", app.appId(), "old", "broken", SecretHash.of("broken"), 0));

        AppSummary summary = list.list().get(0);

        assertThat(summary.warnings()).singleElement().asString()
                .startsWith("The published workflow no longer passes this server's checks: ");
    }

    @Test
    void anAppsParametersAreTheInputFormOfItsNewestWorkflowWithTheUploadLimits() {
        ImportedApp app = importer.importApp(dsl("Echo"));

        AppParameters parameters = describe.parameters(app.appId());

        assertThat(describe.app(app.appId()).name()).isEqualTo("Echo");
        assertThat(parameters.inputForm()).extracting(InputField::variable).containsExactly("query");
        assertThat(parameters.uploadLimits()).isEqualTo(UploadLimits.DIFY);
    }

    @Test
    void anUnknownAppIsNotFoundAndOneWithoutAVersionIsUnavailable() {
        ImportedApp app = importer.importApp(dsl("Echo"));
        apps.add(bare());

        assertRefused(() -> describe.app("app-none"), ApiError.NOT_FOUND, "App not found.");
        assertRefused(() -> describe.parameters("app-none"), ApiError.NOT_FOUND, "App not found.");
        assertRefused(() -> describe.parameters("app-bare"), ApiError.APP_UNAVAILABLE,
                "App unavailable, please check your app configurations.");
    }

    @Test
    void anExportAnswersTheTextAsImportedOfTheNewestOrANamedVersion() {
        ImportedApp app = importer.importApp(dsl("Echo"));
        Published second = publish.publish(app.appId(), dsl("Echo Two"));

        ExportedDsl newest = export.export(new ExportDslQuery(app.appId(), Optional.empty()));
        ExportedDsl first = export.export(new ExportDslQuery(app.appId(), Optional.of(app.workflowId())));

        assertThat(newest).isEqualTo(new ExportedDsl(app.appId(), second.workflowId(), second.version(),
                "Echo Two"));
        assertThat(first.dsl()).isEqualTo("Echo");
        assertThat(first.workflowId()).isEqualTo(app.workflowId());
    }

    @Test
    void anExportOfAnotherAppsVersionOrOfAnUnknownAppIsNotFound() {
        ImportedApp app = importer.importApp(dsl("Echo"));
        ImportedApp other = importer.importApp(dsl("Other"));

        assertRefused(() -> export.export(new ExportDslQuery(app.appId(), Optional.of(other.workflowId()))),
                ApiError.NOT_FOUND, "Workflow version not found for this app.");
        assertRefused(() -> export.export(new ExportDslQuery("app-none", Optional.empty())), ApiError.NOT_FOUND,
                "App not found.");
        apps.add(bare());
        assertRefused(() -> export.export(new ExportDslQuery("app-bare", Optional.empty())), ApiError.NOT_FOUND,
                "The app has no published workflow.");
    }

    /** An app kept without any published version. */
    private static App bare() {
        return new App("app-bare", "Bare", "", AppInfo.WORKFLOW_MODE, "emoji", "🤖", "#FFF", List.of(),
                new SiteSettings("Bare", "emoji", "🤖", "#FFF", null, "", "", "", "", "en-US", true, false),
                "barecode1", true, 1);
    }

    static void assertRefused(ThrowingCallable call, ApiError error, String message) {
        assertThatThrownBy(call).isInstanceOfSatisfying(ApiException.class, e -> {
            assertThat(e.error()).isEqualTo(error);
            assertThat(e.getMessage()).isEqualTo(message);
        });
    }
}
