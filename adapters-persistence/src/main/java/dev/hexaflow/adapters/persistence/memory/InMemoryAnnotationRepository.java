package dev.hexaflow.adapters.persistence.memory;

import dev.hexaflow.application.annotations.port.out.AnnotationRepository;
import dev.hexaflow.domain.annotation.Annotation;
import dev.hexaflow.domain.annotation.AnnotationHit;
import dev.hexaflow.domain.annotation.AnnotationSetting;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/** Annotations, hits and reply settings in memory, for one process, under the repository's lock. */
public final class InMemoryAnnotationRepository implements AnnotationRepository {

    private static final Comparator<Annotation> NEWEST_FIRST = Comparator.comparingLong(Annotation::createdAt)
            .thenComparing(Annotation::id).reversed();

    private final Map<String, Annotation> annotations = new LinkedHashMap<>();
    private final List<AnnotationHit> hits = new ArrayList<>();
    private final Map<String, AnnotationSetting> settings = new LinkedHashMap<>();

    @Override
    public synchronized void add(Annotation annotation) {
        if (annotations.putIfAbsent(annotation.id(), annotation) != null) {
            throw new IllegalStateException("annotation " + annotation.id() + " is already kept");
        }
    }

    @Override
    public synchronized Optional<Annotation> find(String appId, String annotationId) {
        return Optional.ofNullable(annotations.get(annotationId)).filter(kept -> kept.appId().equals(appId));
    }

    @Override
    public synchronized void edit(Annotation annotation) {
        find(annotation.appId(), annotation.id()).ifPresent(kept -> annotations.put(kept.id(),
                kept.edited(annotation.question(), annotation.answer())));
    }

    @Override
    public synchronized boolean remove(String appId, String annotationId) {
        if (find(appId, annotationId).isEmpty()) {
            return false;
        }
        annotations.remove(annotationId);
        hits.removeIf(hit -> hit.annotationId().equals(annotationId));
        return true;
    }

    @Override
    public synchronized Page page(String appId, String keyword, long offset, int limit) {
        String lower = keyword.toLowerCase(Locale.ROOT);
        List<Annotation> matching = annotations.values().stream().filter(kept -> kept.appId().equals(appId))
                .filter(kept -> lower.isEmpty() || kept.question().toLowerCase(Locale.ROOT).contains(lower)
                        || kept.answer().toLowerCase(Locale.ROOT).contains(lower))
                .sorted(NEWEST_FIRST).toList();
        return new Page(matching.stream().skip(offset).limit(limit).toList(), matching.size());
    }

    @Override
    public synchronized List<Annotation> all(String appId) {
        return annotations.values().stream().filter(kept -> kept.appId().equals(appId)).sorted(NEWEST_FIRST)
                .toList();
    }

    @Override
    public synchronized void hit(AnnotationHit hit) {
        find(hit.appId(), hit.annotationId()).ifPresent(kept -> annotations.put(kept.id(), new Annotation(kept.id(),
                kept.appId(), kept.question(), kept.answer(), kept.hitCount() + 1, kept.createdAt())));
        hits.add(hit);
    }

    @Override
    public synchronized List<AnnotationHit> hits(String appId, String annotationId) {
        return hits.stream().filter(hit -> hit.appId().equals(appId) && hit.annotationId().equals(annotationId))
                .sorted(Comparator.comparingLong(AnnotationHit::createdAt).thenComparing(AnnotationHit::id)
                        .reversed()).toList();
    }

    @Override
    public synchronized Optional<AnnotationSetting> setting(String appId) {
        return Optional.ofNullable(settings.get(appId));
    }

    @Override
    public synchronized void saveSetting(AnnotationSetting setting) {
        settings.put(setting.appId(), setting);
    }

    @Override
    public synchronized void removeSetting(String appId) {
        settings.remove(appId);
    }
}
