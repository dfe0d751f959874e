package dev.hexaflow.application.annotations.port.out;

import dev.hexaflow.domain.annotation.Annotation;
import dev.hexaflow.domain.annotation.AnnotationHit;
import dev.hexaflow.domain.annotation.AnnotationSetting;
import java.util.List;
import java.util.Optional;

/** The apps' annotations, their hits and each app's annotation reply setting; an app sees only its own. */
public interface AnnotationRepository {

    void add(Annotation annotation);

    Optional<Annotation> find(String appId, String annotationId);

    /** Keeps a new question and answer of a kept annotation; its hit count stays the store's. */
    void edit(Annotation annotation);

    /** Removes the annotation and its hits; false when the app has no annotation of that id. */
    boolean remove(String appId, String annotationId);

    /**
     * A page of the app's annotations, newest first (then by id, descending), with the count of all that match.
     *
     * @param keyword a text the question or the answer holds, in any case; blank for all
     */
    Page page(String appId, String keyword, long offset, int limit);

    /** Every annotation of the app, for matching a message against. */
    List<Annotation> all(String appId);

    /** Records that an annotation answered a message: one more hit on it, and the hit in its history. */
    void hit(AnnotationHit hit);

    /** The annotation's hits, newest first. */
    List<AnnotationHit> hits(String appId, String annotationId);

    Optional<AnnotationSetting> setting(String appId);

    /** Keeps the app's setting, replacing the one it had. */
    void saveSetting(AnnotationSetting setting);

    void removeSetting(String appId);

    /** @param total how many annotations match, on every page */
    record Page(List<Annotation> items, long total) {
    }
}
