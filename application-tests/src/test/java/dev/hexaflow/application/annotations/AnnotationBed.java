package dev.hexaflow.application.annotations;

import dev.hexaflow.adapters.persistence.memory.InMemoryAnnotationRepository;
import dev.hexaflow.adapters.persistence.memory.InMemoryAppRepository;
import dev.hexaflow.application.MovableClock;
import dev.hexaflow.application.annotations.service.AnnotationReplyService;
import dev.hexaflow.application.annotations.service.ChatAnnotationReplies;
import dev.hexaflow.application.annotations.service.ManageAnnotationsService;
import dev.hexaflow.domain.app.App;
import dev.hexaflow.domain.app.SiteSettings;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

/**
 * The annotation use cases' surroundings, in memory: two chat apps (a chatflow and an agent chat), a workflow app,
 * a completion app, and a clock that moves when told.
 */
final class AnnotationBed {

    static final String CHAT_APP = "app-chat";
    static final String AGENT_APP = "app-agent";
    static final String FLOW_APP = "app-flow";
    static final String COMPLETION_APP = "app-completion";

    final InMemoryAppRepository apps = new InMemoryAppRepository();
    final InMemoryAnnotationRepository annotations = new InMemoryAnnotationRepository();
    final MovableClock clock = new MovableClock(Instant.ofEpochSecond(1_000));
    final ManageAnnotationsService manage = new ManageAnnotationsService(apps, annotations, clock,
            () -> UUID.randomUUID().toString());
    final AnnotationReplyService reply = new AnnotationReplyService(apps, annotations, clock);
    final ChatAnnotationReplies replies = new ChatAnnotationReplies(annotations, clock,
            () -> UUID.randomUUID().toString());

    AnnotationBed() {
        apps.add(app(CHAT_APP, "advanced-chat"));
        apps.add(app(AGENT_APP, "agent-chat"));
        apps.add(app(FLOW_APP, "workflow"));
        apps.add(app(COMPLETION_APP, "completion"));
    }

    private static App app(String id, String mode) {
        return new App(id, "App " + id, "", mode, "emoji", "🤖", "#FFF", List.of(),
                new SiteSettings("Title", "emoji", "🤖", "#FFF", null, "desc", "©", "https://p", "", "en-US", true,
                        false), "code" + id.substring(4), true, 1);
    }
}
