package dev.hexaflow.application.apps;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hexaflow.adapters.persistence.memory.InMemoryAppKeyRepository;
import dev.hexaflow.adapters.persistence.memory.InMemoryAppRepository;
import dev.hexaflow.adapters.persistence.memory.InMemoryWorkflowVersionRepository;
import dev.hexaflow.application.EchoWorkflow;
import dev.hexaflow.application.MovableClock;
import dev.hexaflow.application.apps.port.in.AuthenticateUseCase.Operation;
import dev.hexaflow.application.apps.port.in.Caller;
import dev.hexaflow.application.apps.port.in.ImportAppUseCase.ImportedApp;
import dev.hexaflow.application.apps.port.in.WebAppUseCase.WebToken;
import dev.hexaflow.application.apps.service.AuthenticateService;
import dev.hexaflow.application.apps.service.ImportAppService;
import dev.hexaflow.application.apps.service.ManageAppKeysService;
import dev.hexaflow.application.apps.service.Publications;
import dev.hexaflow.application.apps.service.WebAppService;
import dev.hexaflow.application.apps.service.WebTokens;
import dev.hexaflow.application.common.ApiError;
import dev.hexaflow.application.common.ApiException;
import dev.hexaflow.domain.app.App;
import dev.hexaflow.domain.app.WorkflowVersion;
import dev.hexaflow.domain.workflow.Workflow;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;

/**
 * Importing an app, issuing and revoking its keys and authenticating with them, on the in-memory app, version and
 * key repositories and the real engine's checks. The DSL reader is a lambda answering {@link #workflow} and keeping
 * the bytes it read (application-tests has no YAML reader).
 */
class AppKeysUseCasesTest {

    private static final byte[] DSL = "app:\n  name: Echo\n".getBytes(StandardCharsets.UTF_8);

    private final InMemoryAppRepository apps = new InMemoryAppRepository();
    private final InMemoryWorkflowVersionRepository versions = new InMemoryWorkflowVersionRepository();
    private final InMemoryAppKeyRepository keys = new InMemoryAppKeyRepository();
    private final MovableClock clock = new MovableClock(Instant.parse("2026-03-01T10:00:00Z"));
    private final AtomicInteger drawn = new AtomicInteger();
    private final List<String> read = new ArrayList<>();
    /** The lengths of the secrets drawn: a key's, a site code's. */
    private final List<Integer> secrets = new ArrayList<>();
    private Workflow workflow = EchoWorkflow.named("Echo");
    private final Publications publications = new Publications(dsl -> {
        read.add(new String(dsl, StandardCharsets.UTF_8));
        return workflow;
    }, EchoWorkflow.engine(), keys, this::secret, clock, () -> "id-" + drawn.incrementAndGet());
    private final ImportAppService importer = new ImportAppService(publications, apps, versions);
    private final ManageAppKeysService appKeys = new ManageAppKeysService(publications, apps, keys);
    private final WebTokens tokens = new WebTokens(message -> ("sig" + Arrays.hashCode(message))
            .getBytes(StandardCharsets.US_ASCII), clock);
    private final AuthenticateService authenticate = new AuthenticateService(keys, apps, tokens, java.time.Clock.systemUTC());

    private String secret(int length) {
        secrets.add(length);
        return String.format("%0" + length + "d", drawn.incrementAndGet());
    }

    @Test
    void anImportKeepsTheAppItsPublishedVersionAndAFirstKeyThatSpeaksForIt() {
        ImportedApp imported = importer.importApp(DSL);

        App app = apps.find(imported.appId()).orElseThrow();
        WorkflowVersion version = versions.latest(imported.appId()).orElseThrow();
        assertThat(read).containsExactly("app:\n  name: Echo\n");
        assertThat(app.name()).isEqualTo("Echo");
        assertThat(app.description()).isEqualTo("Echoes its query");
        assertThat(app.siteCode()).isEqualTo(imported.siteCode());
        assertThat(version.id()).isEqualTo(imported.workflowId());
        assertThat(version.dsl()).isEqualTo("app:\n  name: Echo\n");
        assertThat(imported.apiKey()).startsWith("app-").hasSize(28);
        assertThat(secrets).containsExactlyInAnyOrder(App.SITE_CODE_LENGTH, 24);
        assertThat(authenticate.callerOf(imported.apiKey(), Operation.READ_RUNS))
                .usingRecursiveComparison().ignoringFields("keyId").isEqualTo(Caller.appKey(imported.appId()));
    }

    @Test
    void aFileRefusedKeepsNothingNeitherAppNorVersionNorKey() {
        byte[] notUtf8 = {(byte) 0xC3, (byte) 0x28};
        assertRefused(() -> importer.importApp(notUtf8), ApiError.INVALID_PARAM, "The DSL file is not UTF-8 text");
        workflow = EchoWorkflow.named("x".repeat(1001));
        assertThatThrownBy(() -> importer.importApp(DSL)).isInstanceOf(ApiException.class)
                .hasMessageContaining("app.name");

        assertThat(apps.list()).isEmpty();
        assertThat(secrets).as("no key nor site code drawn").isEmpty();
    }

    @Test
    void aRevokedKeyNoLongerAuthenticatesWhileTheAppsOtherKeyStillDoes() {
        ImportedApp imported = importer.importApp(DSL);
        String second = appKeys.issue(imported.appId());

        appKeys.revoke(imported.appId(), imported.apiKey());

        assertThat(second).isNotEqualTo(imported.apiKey());
        assertThat(authenticate.callerOf(second, Operation.RUN))
                .usingRecursiveComparison().ignoringFields("keyId").isEqualTo(Caller.appKey(imported.appId()));
        assertRefused(() -> authenticate.callerOf(imported.apiKey(), Operation.RUN), ApiError.UNAUTHORIZED,
                "Access token is invalid");
        assertRefused(() -> appKeys.revoke(imported.appId(), imported.apiKey()), ApiError.NOT_FOUND,
                "The app has no such key.");
    }

    @Test
    void aKeyIsRevokedOnlyFromItsOwnAppAndIssuedOnlyForAnAppThatExists() {
        ImportedApp first = importer.importApp(DSL);
        ImportedApp other = importer.importApp(DSL);

        assertRefused(() -> appKeys.revoke(other.appId(), first.apiKey()), ApiError.NOT_FOUND,
                "The app has no such key.");
        assertRefused(() -> appKeys.issue("no-such-app"), ApiError.NOT_FOUND, "App not found.");
        assertRefused(() -> appKeys.revoke("no-such-app", first.apiKey()), ApiError.NOT_FOUND, "App not found.");

        assertThat(authenticate.callerOf(first.apiKey(), Operation.RUN).appId()).isEqualTo(first.appId());
    }

    @Test
    void aTextShapedAsNeitherKeyNorTokenIsRefusedAndSoIsAForgedToken() {
        importer.importApp(DSL);

        assertRefused(() -> authenticate.callerOf("app-short", Operation.RUN), ApiError.UNAUTHORIZED,
                "Access token is invalid");
        assertRefused(() -> authenticate.callerOf("app-" + "0".repeat(24), Operation.RUN), ApiError.UNAUTHORIZED,
                "Access token is invalid");
        assertRefused(() -> authenticate.callerOf("web-forged.token", Operation.RUN), ApiError.UNAUTHORIZED,
                "Access token is invalid");
        assertRefused(() -> authenticate.callerOf(null, Operation.RUN), ApiError.UNAUTHORIZED,
                "Access token is invalid");
    }

    @Test
    void aPagesTokenActsForItsUserOnlyForWhatAPageDoesAndOnlyUntilItEnds() {
        ImportedApp imported = importer.importApp(DSL);
        WebToken token = new WebAppService(apps, tokens).issueToken(imported.siteCode(), null);

        Caller caller = authenticate.callerOf(token.token(), Operation.RUN);

        assertThat(caller).isEqualTo(Caller.page(imported.appId(), token.user()));
        assertRefused(() -> authenticate.callerOf(token.token(), Operation.READ_RUNS), ApiError.FORBIDDEN,
                "A web page's token cannot read runs or logs; use the app's API key.");
        clock.advance(Duration.ofHours(1));
        assertRefused(() -> authenticate.callerOf(token.token(), Operation.RUN), ApiError.UNAUTHORIZED,
                "Access token has expired");
    }

    private static void assertRefused(ThrowingCallable call, ApiError error, String message) {
        assertThatThrownBy(call).isInstanceOfSatisfying(ApiException.class, e -> {
            assertThat(e.error()).isEqualTo(error);
            assertThat(e.getMessage()).isEqualTo(message);
        });
    }
}
