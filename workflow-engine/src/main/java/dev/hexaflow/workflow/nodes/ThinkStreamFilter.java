package dev.hexaflow.workflow.nodes;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Separates a reasoning model's {@code <think>...</think>} from its answer, as Dify's LLM node does with
 * {@code reasoning_format: separated}: piece by piece while the answer streams (a tag may be split between two
 * pieces, so the few characters that could still become one are held back), and in one pass over the whole answer
 * ({@link #split}). An OpenAI-compatible endpoint's {@code reasoning_content} reaches here already wrapped in
 * {@code <think>} by the model adapter, as Dify's plugins wrap it.
 */
final class ThinkStreamFilter {

    /** A piece of the answer ({@code reasoning} false) or of its reasoning. */
    record Piece(boolean reasoning, String text) {
    }

    private static final String OPEN = "<think";
    private static final String CLOSE = "</think>";
    private static final int MAX_ATTRIBUTES = 512;
    private static final String OPEN_TAG = "<think(?:\\s[^<>]{0," + MAX_ATTRIBUTES + "})?>";
    private static final Pattern OPEN_PATTERN = Pattern.compile(OPEN_TAG, Pattern.CASE_INSENSITIVE);
    private static final Pattern CLOSE_PATTERN = Pattern.compile(CLOSE, Pattern.CASE_INSENSITIVE);
    private static final Pattern BLOCK = Pattern.compile(OPEN_TAG + "(.*?)</think>",
            Pattern.CASE_INSENSITIVE | Pattern.DOTALL);

    private boolean inside;
    private String held = "";
    private boolean seenText;

    /** The answer's text and reasoning in this piece, in order; what may still become a tag is held. */
    List<Piece> feed(String piece) {
        List<Piece> pieces = new ArrayList<>();
        String work = held + piece;
        held = "";
        while (!work.isEmpty()) {
            Matcher tag = (inside ? CLOSE_PATTERN : OPEN_PATTERN).matcher(work);
            if (tag.find()) {
                add(pieces, work.substring(0, tag.start()));
                inside = !inside;
                work = work.substring(tag.end());
                continue;
            }
            int keep = inside ? closeSuffix(work) : openSuffix(work);
            add(pieces, work.substring(0, work.length() - keep));
            held = work.substring(work.length() - keep);
            work = "";
        }
        return pieces;
    }

    /** What was held, once the answer ended: reasoning if a {@code <think>} was left open. */
    List<Piece> finish() {
        List<Piece> pieces = new ArrayList<>();
        add(pieces, held);
        held = "";
        return pieces;
    }

    private void add(List<Piece> pieces, String text) {
        if (inside) {
            if (!text.isEmpty()) {
                pieces.add(new Piece(true, text));
            }
            return;
        }
        // The answer's leading blank space goes, as Dify strips the text of a reasoning-first model.
        String shown = seenText ? text : text.stripLeading();
        if (!shown.isEmpty()) {
            seenText = true;
            pieces.add(new Piece(false, shown));
        }
    }

    private static int openSuffix(String work) {
        int lt = work.lastIndexOf('<');
        if (lt < 0) {
            return 0;
        }
        String tail = work.substring(lt);
        String lower = tail.toLowerCase(Locale.ROOT);
        if (tail.indexOf('>') >= 0) {
            return 0;
        }
        if (tail.length() <= OPEN.length()) {
            return OPEN.startsWith(lower) ? tail.length() : 0;
        }
        boolean attributes = lower.startsWith(OPEN) && Character.isWhitespace(tail.charAt(OPEN.length()))
                && tail.length() <= OPEN.length() + 1 + MAX_ATTRIBUTES;
        return attributes ? tail.length() : 0;
    }

    private static int closeSuffix(String work) {
        for (int k = Math.min(work.length(), CLOSE.length() - 1); k > 0; k--) {
            if (CLOSE.startsWith(work.substring(work.length() - k).toLowerCase(Locale.ROOT))) {
                return k;
            }
        }
        return 0;
    }

    /**
     * The whole answer split as Dify's {@code split_reasoning} does: [text, reasoning]. Every block leaves the
     * text, a last one left open too; the reasoning is the blocks' trimmed contents, one a line.
     */
    static String[] split(String answer) {
        List<String> reasoning = new ArrayList<>();
        Matcher blocks = BLOCK.matcher(answer);
        StringBuilder text = new StringBuilder();
        while (blocks.find()) {
            if (!blocks.group(1).strip().isEmpty()) {
                reasoning.add(blocks.group(1).strip());
            }
            blocks.appendReplacement(text, "");
        }
        blocks.appendTail(text);
        String clean = text.toString();
        Matcher open = OPEN_PATTERN.matcher(clean);
        int lastClose = clean.toLowerCase(Locale.ROOT).lastIndexOf(CLOSE);
        while (open.find()) {
            // A <think> with no </think> after it: the answer was cut off while the model was thinking.
            if (open.start() > lastClose) {
                String rest = clean.substring(open.end());
                if (!rest.strip().isEmpty()) {
                    reasoning.add(rest.strip());
                }
                clean = clean.substring(0, open.start());
                break;
            }
        }
        clean = clean.replaceAll("\\n\\s*\\n", "\n\n").strip();
        return new String[] {clean, String.join("\n", reasoning)};
    }
}
