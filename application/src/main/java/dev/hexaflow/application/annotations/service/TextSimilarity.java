package dev.hexaflow.application.annotations.service;

import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * How close two texts are with no model: the cosine of their word counts, from 0 (no word shared) to 1 (the same
 * words as often). Words are runs of letters and digits in lower case; a character of a script written without
 * spaces (Han, kana, Hangul, Thai) is a word of its own. Dify measures with the embedding model the reply is
 * enabled with; this is the measure Hexaflow has without one, so a threshold means less here than there.
 */
final class TextSimilarity {

    private TextSimilarity() {
    }

    static double of(String a, String b) {
        Map<String, Integer> left = words(a);
        Map<String, Integer> right = words(b);
        if (left.isEmpty() || right.isEmpty()) {
            return 0;
        }
        double dot = 0;
        for (Map.Entry<String, Integer> word : left.entrySet()) {
            dot += (double) word.getValue() * right.getOrDefault(word.getKey(), 0);
        }
        // One square root of the product: the same words as often give exactly 1.
        return Math.min(1.0, dot / Math.sqrt(squares(left) * squares(right)));
    }

    private static double squares(Map<String, Integer> counts) {
        double sum = 0;
        for (int count : counts.values()) {
            sum += (double) count * count;
        }
        return sum;
    }

    static Map<String, Integer> words(String text) {
        Map<String, Integer> counts = new HashMap<>();
        StringBuilder word = new StringBuilder();
        String lower = text.toLowerCase(Locale.ROOT);
        for (int i = 0; i < lower.length(); ) {
            int point = lower.codePointAt(i);
            i += Character.charCount(point);
            if (unspaced(point)) {
                add(counts, word);
                counts.merge(new String(Character.toChars(point)), 1, Integer::sum);
            } else if (Character.isLetterOrDigit(point)) {
                word.appendCodePoint(point);
            } else {
                add(counts, word);
            }
        }
        add(counts, word);
        return counts;
    }

    private static void add(Map<String, Integer> counts, StringBuilder word) {
        if (!word.isEmpty()) {
            counts.merge(word.toString(), 1, Integer::sum);
            word.setLength(0);
        }
    }

    private static boolean unspaced(int point) {
        Character.UnicodeScript script = Character.UnicodeScript.of(point);
        return script == Character.UnicodeScript.HAN || script == Character.UnicodeScript.HIRAGANA
                || script == Character.UnicodeScript.KATAKANA || script == Character.UnicodeScript.HANGUL
                || script == Character.UnicodeScript.THAI;
    }
}
