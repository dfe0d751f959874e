package dev.hexaflow.application.annotations.service;

import dev.hexaflow.application.annotations.port.in.ManageAnnotationsUseCase;
import dev.hexaflow.application.annotations.port.out.AnnotationRepository;
import dev.hexaflow.application.apps.port.out.AppRepository;
import dev.hexaflow.application.common.ApiError;
import dev.hexaflow.application.common.ApiException;
import dev.hexaflow.domain.annotation.Annotation;
import java.time.Clock;
import java.util.function.Supplier;

/**
 * An app's annotations, listed, added, changed and removed as Dify's AppAnnotationService does it, with the
 * lengths Dify's import holds a question and an answer to. A change needs no index rebuilt: a message is matched
 * against the annotations as they are kept.
 */
public final class ManageAnnotationsService implements ManageAnnotationsUseCase {

    /** Dify's per_page when the limit asked is under 1. */
    static final int DEFAULT_LIMIT = 20;

    private final AnnotatedApps apps;
    private final AnnotationRepository annotations;
    private final Clock clock;
    private final Supplier<String> ids;

    /** @param ids the new annotations' ids, UUIDs as Dify's routes take them */
    public ManageAnnotationsService(AppRepository apps, AnnotationRepository annotations, Clock clock,
            Supplier<String> ids) {
        this.apps = new AnnotatedApps(apps);
        this.annotations = annotations;
        this.clock = clock;
        this.ids = ids;
    }

    @Override
    public AnnotationPage list(ListAnnotationsQuery query) {
        apps.chatApp(query.appId());
        // Flask-SQLAlchemy's paginate without error_out: a page under 1 is the first, a limit past 100 is 100.
        int page = Math.max(1, query.page());
        int perPage = query.limit() < 1 ? DEFAULT_LIMIT : Math.min(query.limit(), MAX_PAGE);
        AnnotationRepository.Page found = annotations.page(query.appId(), query.keyword().strip(),
                (long) (page - 1) * perPage, perPage);
        return new AnnotationPage(found.items(), found.items().size() == query.limit(), query.limit(),
                found.total(), query.page());
    }

    @Override
    public Annotation create(AnnotationCommand command) {
        apps.chatApp(command.appId());
        check(command);
        Annotation annotation = new Annotation(ids.get(), command.appId(), command.question(), command.answer(), 0,
                clock.instant().getEpochSecond());
        annotations.add(annotation);
        return annotation;
    }

    @Override
    public Annotation update(String annotationId, AnnotationCommand command) {
        apps.chatApp(command.appId());
        Annotation kept = owned(command.appId(), annotationId);
        check(command);
        Annotation edited = kept.edited(command.question(), command.answer());
        annotations.edit(edited);
        return annotations.find(command.appId(), annotationId).orElse(edited);
    }

    @Override
    public void delete(String appId, String annotationId) {
        apps.chatApp(appId);
        owned(appId, annotationId);
        if (!annotations.remove(appId, annotationId)) {
            throw new ApiException(ApiError.NOT_FOUND, AnnotatedApps.ANNOTATION_NOT_FOUND);
        }
    }

    /** Another app's annotation is not found, as an unknown one: an app never learns of another's. */
    private Annotation owned(String appId, String annotationId) {
        if (!AnnotatedApps.isUuid(annotationId)) {
            throw new ApiException(ApiError.NOT_FOUND, "The requested URL was not found on the server.");
        }
        return annotations.find(appId, annotationId).orElseThrow(() -> new ApiException(ApiError.NOT_FOUND,
                AnnotatedApps.ANNOTATION_NOT_FOUND));
    }

    private static void check(AnnotationCommand command) {
        text("question", command.question(), Annotation.MAX_QUESTION);
        text("answer", command.answer(), Annotation.MAX_ANSWER);
    }

    private static void text(String field, String value, int max) {
        if (value == null) {
            throw new ApiException(ApiError.INVALID_PARAM, field + " is required");
        }
        if (value.isBlank()) {
            throw new ApiException(ApiError.INVALID_PARAM, field + " must not be empty");
        }
        if (value.length() > max) {
            throw new ApiException(ApiError.INVALID_PARAM, field + " is too long. Maximum " + max
                    + " characters allowed.");
        }
    }
}
