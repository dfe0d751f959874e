package dev.hexaflow.domain.knowledge;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Cleans a text and splits it into chunks as Dify's indexing runner does: the clean processor (invalid symbols
 * always; extra spaces, URLs and emails when the rules say), then the custom separator (Dify's
 * {@code FixedRecursiveCharacterTextSplitter}), then pieces still over {@code max_tokens} split recursively at
 * {@code "\n\n"}, {@code "。"}, {@code ". "}, {@code " "}, and between characters, merged back up to
 * {@code max_tokens} with up to {@code chunk_overlap} tokens carried from one chunk to the next. Chunks are trimmed;
 * empty ones are dropped. Each chunk is taken from a {@link ChunkBudget} as it is made, so a split that would make too
 * many stops there. The recursion's depth is bounded by the five separators, whatever the text.
 */
public final class TextSplitter {

    private static final List<String> SEPARATORS = List.of("\n\n", "。", ". ", " ", "");
    private static final Pattern INVALID = Pattern.compile("[\\x00-\\x08\\x0B\\x0C\\x0E-\\x1F\\x7F\\uFFFE]");
    private static final Pattern MANY_NEWLINES = Pattern.compile("\\n{3,}");
    private static final Pattern MANY_SPACES = Pattern.compile(
            "[\\t\\f\\r\\x20\\u00a0\\u1680\\u180e\\u2000-\\u200a\\u202f\\u205f\\u3000]{2,}");
    private static final Pattern EMAILS = Pattern.compile("([a-zA-Z0-9_.+-]+@[a-zA-Z0-9-]+\\.[a-zA-Z0-9-.]+)");
    private static final Pattern URLS = Pattern.compile("https?://[^\\s]+");

    private final SplittingRules rules;

    public TextSplitter(SplittingRules rules) {
        this.rules = rules;
    }

    /** The text's chunks, within a budget of {@link ChunkBudget#DEFAULT_MAX_CHUNKS}. */
    public List<String> split(String text) {
        return split(text, ChunkBudget.standard());
    }

    /**
     * The text's chunks, each taken from the budget as it is made.
     *
     * @throws TooManyChunksException as soon as the budget is spent, before the rest is split
     */
    public List<String> split(String text, ChunkBudget budget) {
        String clean = clean(text);
        List<String> pieces = rules.separator().isEmpty() ? List.of(clean)
                : List.of(clean.split(Pattern.quote(rules.separator()), -1));
        Chunks chunks = new Chunks(budget);
        for (String piece : pieces) {
            if (TextMeasure.tokens(piece) > rules.maxTokens()) {
                recursive(piece, SEPARATORS, chunks);
            } else {
                chunks.add(piece);
            }
        }
        return chunks.made;
    }

    /** The chunks made so far, trimmed, empty ones dropped, each taken from the budget. */
    private static final class Chunks {
        final List<String> made = new ArrayList<>();
        final ChunkBudget budget;

        Chunks(ChunkBudget budget) {
            this.budget = budget;
        }

        void add(String chunk) {
            String trimmed = chunk.strip();
            if (!trimmed.isEmpty()) {
                budget.take(trimmed);
                made.add(trimmed);
            }
        }
    }

    /** Dify's CleanProcessor. */
    String clean(String text) {
        String clean = INVALID.matcher(text.replace("<|", "<").replace("|>", ">")).replaceAll("");
        if (rules.removeExtraSpaces()) {
            clean = MANY_SPACES.matcher(MANY_NEWLINES.matcher(clean).replaceAll("\n\n")).replaceAll(" ");
        }
        if (rules.removeUrlsEmails()) {
            clean = URLS.matcher(EMAILS.matcher(clean).replaceAll("")).replaceAll("");
        }
        return clean;
    }

    private void recursive(String text, List<String> separators, Chunks chunks) {
        String separator = separators.get(separators.size() - 1);
        List<String> rest = List.of();
        for (int i = 0; i < separators.size(); i++) {
            if (separators.get(i).isEmpty() || text.contains(separators.get(i))) {
                separator = separators.get(i);
                rest = separators.subList(i + 1, separators.size());
                break;
            }
        }
        List<String> splits = separator.isEmpty() ? characters(text)
                : List.of(text.split(Pattern.quote(separator), -1));
        List<String> fitting = new ArrayList<>();
        for (String split : splits) {
            if (TextMeasure.tokens(split) <= rules.maxTokens()) {
                fitting.add(split);
            } else {
                if (!fitting.isEmpty()) {
                    merge(fitting, separator, chunks);
                    fitting.clear();
                }
                if (rest.isEmpty()) {
                    chunks.add(split);
                } else {
                    recursive(split, rest, chunks);
                }
            }
        }
        if (!fitting.isEmpty()) {
            merge(fitting, separator, chunks);
        }
    }

    /** Joins small splits into chunks of at most max_tokens, each starting with up to overlap tokens of the last. */
    private void merge(List<String> splits, String separator, Chunks chunks) {
        Deque<String> current = new ArrayDeque<>();
        int total = 0;
        int separatorTokens = TextMeasure.tokens(separator);
        for (String split : splits) {
            int length = TextMeasure.tokens(split);
            if (total + length + (current.isEmpty() ? 0 : separatorTokens) > rules.maxTokens()
                    && !current.isEmpty()) {
                chunks.add(String.join(separator, current));
                while (total > rules.overlap() || total + length + separatorTokens > rules.maxTokens() && total > 0) {
                    total -= TextMeasure.tokens(current.removeFirst()) + (current.isEmpty() ? 0 : separatorTokens);
                }
            }
            current.addLast(split);
            total += length + (current.size() > 1 ? separatorTokens : 0);
        }
        if (!current.isEmpty()) {
            chunks.add(String.join(separator, current));
        }
    }

    private static List<String> characters(String text) {
        return text.codePoints().mapToObj(Character::toString).toList();
    }
}
