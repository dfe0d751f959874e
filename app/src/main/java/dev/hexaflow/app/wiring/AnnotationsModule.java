package dev.hexaflow.app.wiring;

import dev.hexaflow.adapters.persistence.jdbi.JdbiAnnotationRepository;
import dev.hexaflow.application.annotations.port.in.AnnotationReplyUseCase;
import dev.hexaflow.application.annotations.port.in.ManageAnnotationsUseCase;
import dev.hexaflow.application.annotations.service.AnnotationReplyService;
import dev.hexaflow.application.annotations.service.ChatAnnotationReplies;
import dev.hexaflow.application.annotations.service.ManageAnnotationsService;
import dev.hexaflow.application.apps.port.out.AppRepository;
import dev.hexaflow.application.chat.port.out.AnnotationReplies;
import dev.hexaflow.application.knowledge.port.out.Embeddings;
import dev.hexaflow.domain.id.TimeOrderedIds;
import java.time.Clock;
import org.jdbi.v3.core.Jdbi;

/**
 * The annotations context: an app's annotations and its annotation reply on the Jdbi repository, and the reply
 * the chat context asks at the start of each turn (made with the chat module, which hands it to its sender).
 */
public final class AnnotationsModule {

    public final ManageAnnotationsUseCase manage;
    public final AnnotationReplyUseCase reply;
    /** What the chat context asks before a turn's run starts. */
    final AnnotationReplies replies;

    /** @param embeddings the server's embedding model (none configured: questions are matched by their words) */
    AnnotationsModule(Jdbi jdbi, AppRepository apps, Embeddings embeddings, Clock clock) {
        JdbiAnnotationRepository annotations = new JdbiAnnotationRepository(jdbi);
        TimeOrderedIds ids = new TimeOrderedIds();
        this.manage = new ManageAnnotationsService(apps, annotations, clock, ids);
        this.reply = new AnnotationReplyService(apps, annotations, clock);
        this.replies = new ChatAnnotationReplies(annotations, embeddings, clock, ids);
    }
}
