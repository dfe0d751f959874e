package dev.hexaflow.application.chat.service;

import dev.hexaflow.domain.workflow.JsonText;
import java.util.Map;

/**
 * Dify's conversation title: the prompt it sends with the first query (Dify's CONVERSATION_TITLE_PROMPT) and how
 * it reads the answer (the "Your Output" of a JSON object, else the query; cut to 75 characters and "...").
 */
final class ConversationTitles {

    static final String PROMPT = """
            You are asked to generate a concise chat title by decomposing the user’s input into two parts: \
            “Intention” and “Subject”.

            1. Detect Input Language
            Automatically identify the language of the user’s input (e.g. English, Chinese, Italian, Español, \
            Arabic, Japanese, French, and etc.).

            2. Generate Title
            - Combine Intention + Subject into a single, as-short-as-possible phrase.
            - The title must be natural, friendly, and in the same language as the input.
            - If the input is a direct question to the model, you may add an emoji at the end.

            3. Output Format
            Return **only** a valid JSON object with these exact keys and no additional text:
            {
            "Language Type": "<Detected language>",
            "Your Reasoning": "<Brief explanation in that language>",
            "Your Output": "<Intention + Subject>"
            }

            User Input:
            """;

    /** What Dify asks of the model for a title: room for the JSON object, and some variety. */
    static final Map<String, Object> PARAMETERS = Map.of("max_tokens", 500L, "temperature", 1L);

    private static final int LONGEST = 75;

    private ConversationTitles() {
    }

    /** The query as the prompt holds it: a long one keeps its first and last 300 characters, on one line. */
    static String promptQuery(String query) {
        String text = query;
        if (text.codePointCount(0, text.length()) > 2000) {
            text = codePoints(text, 0, 300) + "...[TRUNCATED]..." + codePoints(text,
                    text.codePointCount(0, text.length()) - 300, 300);
        }
        return text.replace("\n", " ");
    }

    static String prompt(String query) {
        return PROMPT + promptQuery(query) + "\n";
    }

    /** The title in the model's answer; an empty answer is an empty title, as in Dify. */
    static String title(String answer, String query) {
        if (answer.isEmpty()) {
            return "";
        }
        String name = promptQuery(query);
        if (parse(answer) instanceof Map<?, ?> object && object.get("Your Output") instanceof String output
                && !output.strip().isEmpty()) {
            name = output.strip();
        }
        name = name.strip();
        if (name.codePointCount(0, name.length()) > LONGEST) {
            name = codePoints(name, 0, LONGEST) + "...";
        }
        return name;
    }

    /** JSON as Dify reads it, leniently: the object inside text around it too (json_repair finds it). */
    private static Object parse(String answer) {
        try {
            return JsonText.parse(answer.strip());
        } catch (IllegalArgumentException whole) {
            int start = answer.indexOf('{');
            int end = answer.lastIndexOf('}');
            if (start < 0 || end <= start) {
                return null;
            }
            try {
                return JsonText.parse(answer.substring(start, end + 1));
            } catch (IllegalArgumentException inner) {
                return null;
            }
        }
    }

    private static String codePoints(String text, int from, int count) {
        int begin = text.offsetByCodePoints(0, from);
        return text.substring(begin, text.offsetByCodePoints(begin, count));
    }
}
