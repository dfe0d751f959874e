package dev.hexaflow.application.runs.service;

import java.util.ArrayList;
import java.util.List;

/**
 * A JSON array of strings, written and read by hand: the one shape an event reference carries text in. JSON's
 * escapes keep a reference on one line whatever the text holds (a kept run's events are joined by newlines), and
 * the application layer knows no JSON library.
 */
final class JsonStrings {

    private static final char[] HEX = "0123456789abcdef".toCharArray();

    private JsonStrings() {
    }

    static String array(List<String> strings) {
        StringBuilder json = new StringBuilder(16 + strings.stream().mapToInt(String::length).sum()).append('[');
        for (int i = 0; i < strings.size(); i++) {
            if (i > 0) {
                json.append(',');
            }
            string(json, strings.get(i));
        }
        return json.append(']').toString();
    }

    private static void string(StringBuilder json, String text) {
        json.append('"');
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '"' -> json.append("\\\"");
                case '\\' -> json.append("\\\\");
                case '\n' -> json.append("\\n");
                case '\r' -> json.append("\\r");
                case '\t' -> json.append("\\t");
                default -> {
                    if (c < 0x20 || c == '\u2028' || c == '\u2029') {
                        json.append("\\u").append(HEX[c >> 12]).append(HEX[c >> 8 & 15]).append(HEX[c >> 4 & 15])
                                .append(HEX[c & 15]);
                    } else {
                        json.append(c);
                    }
                }
            }
        }
        json.append('"');
    }

    /** The strings of an array {@link #array} wrote; fails on anything else. */
    static List<String> parseArray(String json) {
        List<String> strings = new ArrayList<>();
        int at = expect(json, 0, '[');
        if (json.startsWith("]", at)) {
            return strings;
        }
        while (true) {
            at = expect(json, at, '"');
            StringBuilder text = new StringBuilder();
            for (char c = json.charAt(at++); c != '"'; c = json.charAt(at++)) {
                if (c == '\\') {
                    char escaped = json.charAt(at++);
                    switch (escaped) {
                        case 'n' -> text.append('\n');
                        case 'r' -> text.append('\r');
                        case 't' -> text.append('\t');
                        case 'b' -> text.append('\b');
                        case 'f' -> text.append('\f');
                        case 'u' -> {
                            text.append((char) Integer.parseInt(json.substring(at, at + 4), 16));
                            at += 4;
                        }
                        default -> text.append(escaped);
                    }
                } else {
                    text.append(c);
                }
            }
            strings.add(text.toString());
            if (json.charAt(at) == ']') {
                return strings;
            }
            at = expect(json, at, ',');
        }
    }

    private static int expect(String json, int at, char wanted) {
        if (at >= json.length() || json.charAt(at) != wanted) {
            throw new IllegalArgumentException("not an array of strings at " + at + ": " + json);
        }
        return at + 1;
    }
}
