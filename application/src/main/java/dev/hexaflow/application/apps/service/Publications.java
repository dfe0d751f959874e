package dev.hexaflow.application.apps.service;

import dev.hexaflow.application.apps.port.out.AppKeyRepository;
import dev.hexaflow.application.apps.port.out.PublicationHook;
import dev.hexaflow.application.common.ApiError;
import dev.hexaflow.application.common.ApiException;
import dev.hexaflow.application.common.TextLimits;
import dev.hexaflow.application.common.port.out.SecretGenerator;
import dev.hexaflow.domain.app.App;
import dev.hexaflow.domain.app.AppKey;
import dev.hexaflow.domain.app.WorkflowVersion;
import dev.hexaflow.domain.secret.SecretHash;
import dev.hexaflow.domain.workflow.AppInfo;
import dev.hexaflow.domain.workflow.Workflow;
import dev.hexaflow.workflow.engine.WorkflowEngine;
import dev.hexaflow.workflow.port.out.WorkflowDslReader;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.function.Supplier;

/** What importing and publishing share: reading and checking a DSL file whole, versions, and keys. */
public final class Publications {

    private static final DateTimeFormatter VERSION = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSSSSS")
            .withZone(ZoneOffset.UTC);

    private final WorkflowDslReader reader;
    private final WorkflowEngine engine;
    private final AppKeyRepository keys;
    private final SecretGenerator secrets;
    private final Clock clock;
    private final Supplier<String> ids;
    private final PublicationHook hook;

    public Publications(WorkflowDslReader reader, WorkflowEngine engine, AppKeyRepository keys, SecretGenerator secrets,
            Clock clock, Supplier<String> ids) {
        this(reader, engine, keys, secrets, clock, ids, PublicationHook.NONE);
    }

    /** As above, telling {@code hook} of each workflow checked and published. */
    public Publications(WorkflowDslReader reader, WorkflowEngine engine, AppKeyRepository keys, SecretGenerator secrets,
            Clock clock, Supplier<String> ids, PublicationHook hook) {
        this.hook = hook;
        this.reader = reader;
        this.engine = engine;
        this.keys = keys;
        this.secrets = secrets;
        this.clock = clock;
        this.ids = ids;
    }

    /** A DSL file's workflow that passed every check, and what the engine warns of it. */
    record Checked(Workflow workflow, List<String> warnings) {
    }

    /** The workflow of a DSL file, checked as the engine checks it before a run, its app's texts as they fit. */
    Checked checked(byte[] dsl) {
        Workflow workflow = reader.read(dsl);
        List<String> warnings = engine.prepare(workflow).warnings();
        hook.check(workflow);
        AppInfo app = workflow.app();
        TextLimits.atMost("app.name", app.name(), 1000);
        TextLimits.atMost("app.description", app.description(), 20_000);
        TextLimits.atMost("app.icon", app.icon(), 2000);
        TextLimits.atMost("app.icon_background", app.iconBackground(), 100);
        return new Checked(workflow, warnings);
    }

    WorkflowVersion version(String appId, byte[] dsl) {
        String text;
        try {
            text = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(dsl)).toString();
        } catch (CharacterCodingException e) {
            throw new ApiException(ApiError.INVALID_PARAM, "The DSL file is not UTF-8 text");
        }
        Instant now = clock.instant();
        return new WorkflowVersion(ids.get(), appId, VERSION.format(now), text, SecretHash.of(text),
                now.getEpochSecond());
    }

    /** Tells the hook that {@code workflow} is the app's newest version, once it is kept. */
    void published(String appId, Workflow workflow) {
        hook.published(appId, workflow);
    }

    String issueKey(String appId) {
        String key = AppKey.PREFIX + secrets.newSecret(AppKey.RANDOM_LENGTH);
        keys.add(new AppKey(SecretHash.of(key), appId, clock.instant().getEpochSecond(), AppKey.hintOf(key)));
        return key;
    }

    /** A code for a new app's web page, as hard to guess as a key, so that a page is found only by its link. */
    String newSiteCode() {
        return secrets.newSecret(App.SITE_CODE_LENGTH);
    }

    String newId() {
        return ids.get();
    }

    long now() {
        return clock.instant().getEpochSecond();
    }
}
