package dev.hexaflow.application.knowledge.port.in;

import dev.hexaflow.domain.knowledge.ParentChildRules;
import dev.hexaflow.domain.knowledge.SplittingRules;
import java.util.Map;
import java.util.Optional;

/**
 * A document to add to a base: its text, or a file's bytes with its extension (with the dot) and MIME type for
 * the document extractor, split by the rules given, with the metadata filters will test; with a hierarchy, split into
 * parent chunks and their child chunks by it instead.
 */
public record AddDocumentCommand(String baseId, String name, Content content, SplittingRules rules,
        Map<String, String> metadata, Optional<ParentChildRules> hierarchy) {

    /** A document split into chunks alone ({@code text_model}). */
    public AddDocumentCommand(String baseId, String name, Content content, SplittingRules rules,
            Map<String, String> metadata) {
        this(baseId, name, content, rules, metadata, Optional.empty());
    }

    public AddDocumentCommand {
        hierarchy = hierarchy == null ? Optional.empty() : hierarchy;
        if (baseId == null || name == null || content == null) {
            throw new IllegalArgumentException("baseId, name and content must not be null");
        }
        rules = rules == null ? SplittingRules.AUTOMATIC : rules;
        metadata = metadata == null ? Map.of() : Map.copyOf(metadata);
    }

    public static AddDocumentCommand text(String baseId, String name, String text) {
        return new AddDocumentCommand(baseId, name, new Text(text), SplittingRules.AUTOMATIC, Map.of());
    }

    public AddDocumentCommand withRules(SplittingRules other) {
        return new AddDocumentCommand(baseId, name, content, other, metadata, hierarchy);
    }

    public AddDocumentCommand withMetadata(Map<String, String> other) {
        return new AddDocumentCommand(baseId, name, content, rules, other, hierarchy);
    }

    /** Where the document's text comes from. */
    public sealed interface Content {
    }

    public record Text(String text) implements Content {
        public Text {
            if (text == null) {
                throw new IllegalArgumentException("text must not be null");
            }
        }
    }

    public record File(byte[] bytes, String extension, String mimeType) implements Content {
        public File {
            if (bytes == null) {
                throw new IllegalArgumentException("bytes must not be null");
            }
        }
    }
}
