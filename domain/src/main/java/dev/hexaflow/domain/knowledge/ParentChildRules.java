package dev.hexaflow.domain.knowledge;

import java.util.ArrayList;
import java.util.List;

/**
 * Dify's hierarchical process rule ({@code doc_form: hierarchical_model}): the text is split into parent chunks,
 * by paragraph ({@code segmentation}) or whole ({@code full-doc}), and each parent into child chunks
 * ({@code subchunk_segmentation}). Children are searched; a hit answers with its parent.
 */
public record ParentChildRules(ParentMode parentMode, SplittingRules parent, SplittingRules child) {

    /** Dify's cap on a full-doc parent: the first 10,000 tokens of the text. */
    public static final int FULL_DOC_TOKENS = 10_000;

    /** How parents are cut, by Dify's wire names. */
    public enum ParentMode {
        PARAGRAPH("paragraph"), FULL_DOC("full-doc");

        private final String wireName;

        ParentMode(String wireName) {
            this.wireName = wireName;
        }

        public String wireName() {
            return wireName;
        }

        public static java.util.Optional<ParentMode> fromWireName(String name) {
            for (ParentMode mode : values()) {
                if (mode.wireName.equals(name)) {
                    return java.util.Optional.of(mode);
                }
            }
            return java.util.Optional.empty();
        }
    }

    /** A parent's text with its children's. */
    public record Split(String parent, List<String> children) {
    }

    public ParentChildRules {
        if (parentMode == null || parent == null || child == null) {
            throw new IllegalArgumentException("parent_mode, segmentation and subchunk_segmentation are required");
        }
    }

    /** The text's parents, each with its children; a parent with no text to split is left out. */
    public List<Split> split(String text) {
        return split(text, ChunkBudget.standard());
    }

    /**
     * The text's parents, each with its children; parents and children alike are taken from the budget.
     *
     * @throws TooManyChunksException as soon as the budget is spent
     */
    public List<Split> split(String text, ChunkBudget budget) {
        List<String> parents;
        if (parentMode == ParentMode.FULL_DOC) {
            String cleaned = new TextSplitter(parent).clean(text).strip();
            parents = cleaned.isEmpty() ? List.of() : List.of(TextMeasure.firstTokens(cleaned, FULL_DOC_TOKENS));
            parents.forEach(budget::take);
        } else {
            parents = new TextSplitter(parent).split(text, budget);
        }
        TextSplitter children = new TextSplitter(child);
        List<Split> splits = new ArrayList<>();
        for (String piece : parents) {
            List<String> pieces = children.split(piece, budget);
            if (!pieces.isEmpty()) {
                splits.add(new Split(piece, pieces));
            }
        }
        return splits;
    }
}
