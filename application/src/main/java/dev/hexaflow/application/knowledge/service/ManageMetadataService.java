package dev.hexaflow.application.knowledge.service;

import dev.hexaflow.application.knowledge.port.in.KnowledgeException;
import dev.hexaflow.application.knowledge.port.in.ManageMetadataUseCase;
import dev.hexaflow.application.knowledge.port.in.SetDocumentMetadataCommand;
import dev.hexaflow.application.knowledge.port.in.SetDocumentMetadataCommand.DocumentValues;
import dev.hexaflow.application.knowledge.port.in.SetDocumentMetadataCommand.Value;
import dev.hexaflow.application.knowledge.port.out.KnowledgeRepository;
import dev.hexaflow.domain.knowledge.BuiltInMetadata;
import dev.hexaflow.domain.knowledge.KnowledgeBase;
import dev.hexaflow.domain.knowledge.KnowledgeDocument;
import dev.hexaflow.domain.knowledge.MetadataField;
import dev.hexaflow.domain.knowledge.MetadataType;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * Metadata fields kept beside their base, and their values on the documents, by field name: the name is what
 * metadata filters test, so a rename or a deletion rewrites every document's values with the field, at once.
 * Every check runs before anything is saved.
 */
public final class ManageMetadataService implements ManageMetadataUseCase {

    private final KnowledgeRepository repository;
    private final Clock clock;
    private final Supplier<String> ids;

    public ManageMetadataService(KnowledgeRepository repository, Clock clock, Supplier<String> ids) {
        this.repository = repository;
        this.clock = clock;
        this.ids = ids;
    }

    @Override
    public MetadataField create(String baseId, String name, MetadataType type) {
        KnowledgeBase base = base(baseId);
        List<MetadataField> fields = repository.metadataFields(base.id());
        MetadataField field = valid(() -> new MetadataField(ids.get(), base.id(), name, type, clock.instant()));
        refuseTaken(fields, field);
        if (fields.size() >= MetadataField.MAX_PER_BASE) {
            throw invalid("Metadata fields cannot exceed " + MetadataField.MAX_PER_BASE + " per dataset.");
        }
        repository.saveMetadataField(field, List.of());
        return field;
    }

    @Override
    public MetadataField rename(String baseId, String fieldId, String name) {
        MetadataField field = field(base(baseId), fieldId);
        MetadataField renamed = valid(() -> field.renamed(name));
        refuseTaken(repository.metadataFields(field.baseId()), renamed);
        List<KnowledgeDocument> changed = new ArrayList<>();
        for (KnowledgeDocument document : repository.documents(field.baseId())) {
            if (document.metadata().containsKey(field.name())) {
                Map<String, String> values = new LinkedHashMap<>(document.metadata());
                values.put(renamed.name(), values.remove(field.name()));
                changed.add(document.withMetadata(values));
            }
        }
        repository.saveMetadataField(renamed, changed);
        return renamed;
    }

    @Override
    public void delete(String baseId, String fieldId) {
        MetadataField field = field(base(baseId), fieldId);
        List<KnowledgeDocument> changed = new ArrayList<>();
        for (KnowledgeDocument document : repository.documents(field.baseId())) {
            if (document.metadata().containsKey(field.name())) {
                Map<String, String> values = new LinkedHashMap<>(document.metadata());
                values.remove(field.name());
                changed.add(document.withMetadata(values));
            }
        }
        repository.deleteMetadataField(field.id(), changed);
    }

    @Override
    public BaseMetadata fields(String baseId) {
        KnowledgeBase base = base(baseId);
        List<KnowledgeDocument> documents = repository.documents(base.id());
        List<CountedField> counted = repository.metadataFields(base.id()).stream()
                .map(f -> new CountedField(f, (int) documents.stream()
                        .filter(d -> d.metadata().containsKey(f.name())).count())).toList();
        return new BaseMetadata(counted, repository.builtInMetadataEnabled(base.id()));
    }

    @Override
    public void enableBuiltIn(String baseId, boolean enabled) {
        repository.setBuiltInMetadataEnabled(base(baseId).id(), enabled);
    }

    @Override
    public void setDocumentMetadata(SetDocumentMetadataCommand command) {
        KnowledgeBase base = base(command.baseId());
        Map<String, MetadataField> fields = repository.metadataFields(base.id()).stream()
                .collect(Collectors.toMap(MetadataField::id, Function.identity()));
        Map<String, KnowledgeDocument> changed = new LinkedHashMap<>();
        for (DocumentValues operation : command.operations()) {
            KnowledgeDocument document = Optional.ofNullable(operation.documentId()).flatMap(repository::findDocument)
                    .filter(d -> d.baseId().equals(base.id()))
                    .orElseThrow(() -> invalid("Document not found."));
            Map<String, String> values = new LinkedHashMap<>();
            for (Value value : operation.values()) {
                MetadataField field = Optional.ofNullable(value.fieldId()).map(fields::get)
                        .orElseThrow(() -> invalid("Metadata not found."));
                if (value.name() != null && !value.name().equals(field.name())) {
                    throw invalid("Metadata name '" + value.name() + "' is not the name of metadata " + field.id()
                            + ".");
                }
                if (value.value() != null && value.value().length() > SetDocumentMetadataCommand.MAX_VALUE) {
                    throw invalid("Metadata value cannot exceed " + SetDocumentMetadataCommand.MAX_VALUE
                            + " characters.");
                }
                if (value.value() != null) {
                    values.put(field.name(), value.value());
                }
            }
            changed.put(document.id(), document.withMetadata(values));
        }
        repository.saveDocuments(List.copyOf(changed.values()));
    }

    @Override
    public List<MetadataValue> valuesOf(KnowledgeDocument document) {
        Map<String, MetadataField> byName = new HashMap<>();
        repository.metadataFields(document.baseId()).forEach(f -> byName.put(f.name(), f));
        List<MetadataValue> values = new ArrayList<>();
        document.metadata().forEach((name, value) -> {
            MetadataField field = byName.get(name);
            values.add(field == null ? new MetadataValue(name, name, MetadataType.STRING, value)
                    : new MetadataValue(field.id(), name, field.type(), value));
        });
        if (repository.builtInMetadataEnabled(document.baseId())) {
            BuiltInMetadata.of(document).forEach((name, value) -> values.add(new MetadataValue(BuiltInMetadata.ID,
                    name, BuiltInMetadata.types().get(name), value)));
        }
        return values;
    }

    private static void refuseTaken(List<MetadataField> fields, MetadataField field) {
        if (fields.stream().anyMatch(f -> f.name().equals(field.name()) && !f.id().equals(field.id()))) {
            throw invalid("Metadata name already exists.");
        }
    }

    private MetadataField field(KnowledgeBase base, String id) {
        return repository.findMetadataField(id).filter(f -> f.baseId().equals(base.id()))
                .orElseThrow(() -> new KnowledgeException(KnowledgeException.Reason.NOT_FOUND, "Metadata not found."));
    }

    private KnowledgeBase base(String id) {
        return Aliases.resolve(repository, id).orElseThrow(() -> new KnowledgeException(
                KnowledgeException.Reason.NOT_FOUND, "Dataset not found."));
    }

    private static MetadataField valid(Supplier<MetadataField> field) {
        try {
            return field.get();
        } catch (IllegalArgumentException e) {
            throw invalid(e.getMessage());
        }
    }

    private static KnowledgeException invalid(String message) {
        return new KnowledgeException(KnowledgeException.Reason.INVALID, message);
    }
}
