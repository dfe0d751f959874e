package dev.hexaflow.application.annotations.port.in;

import dev.hexaflow.application.common.ApiException;
import dev.hexaflow.domain.annotation.Annotation;
import java.util.List;

/**
 * An app's annotations as Dify's Service API manages them: listed a page at a time (with a keyword), added,
 * changed and removed. Only a chat app has annotations; another app's annotation is not found.
 */
public interface ManageAnnotationsUseCase {

    /** The most annotations a page holds, Dify's max_per_page: a larger limit is held to it. */
    int MAX_PAGE = 100;

    /** @throws ApiException NOT_CHAT_APP for an app that is not a chat app */
    AnnotationPage list(ListAnnotationsQuery query);

    /** @throws ApiException INVALID_PARAM for a missing or too long question or answer */
    Annotation create(AnnotationCommand command);

    /** @throws ApiException NOT_FOUND "Annotation not found" for an annotation this app does not have */
    Annotation update(String annotationId, AnnotationCommand command);

    /** @throws ApiException NOT_FOUND "Annotation not found" for an annotation this app does not have */
    void delete(String appId, String annotationId);

    /**
     * @param page  the page asked for, from 1 (Dify reads a smaller one as 1)
     * @param limit the annotations a page holds (Dify reads one under 1 as 20, one over 100 as 100)
     */
    record ListAnnotationsQuery(String appId, int page, int limit, String keyword) {
        public ListAnnotationsQuery {
            keyword = keyword == null ? "" : keyword;
        }
    }

    record AnnotationCommand(String appId, String question, String answer) {
    }

    /**
     * A page as Dify answers it: {@code has_more} when the page is full, and the page and limit as asked.
     *
     * @param total how many annotations match, on every page
     */
    record AnnotationPage(List<Annotation> data, boolean hasMore, int limit, long total, int page) {
    }
}
