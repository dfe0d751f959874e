package dev.hexaflow.application.chat.service;

import dev.hexaflow.domain.chat.Message;
import dev.hexaflow.domain.workflow.JsonText;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Dify's questions after an answer: the history as its memory writes it ("Human: ..." and "Assistant: ..."
 * lines), its instruction prompt, and how it reads the answer (the first [...] in it, as a JSON list).
 */
final class SuggestedQuestions {

    /** How many past messages Dify gives the model. */
    static final int HISTORY = 3;
    static final int MOST = 3;
    static final Map<String, Object> PARAMETERS = Map.of("max_tokens", 256L, "temperature", 0L);

    static final String INSTRUCTION = "Please help me predict the three most likely questions that human would "
            + "ask, and keep each question under 20 characters.\n"
            + "MAKE SURE your output is the SAME language as the Assistant's latest response. "
            + "The output must be an array in JSON format following the specified schema:\n"
            + "[\"question1\",\"question2\",\"question3\"]\n";

    private static final Pattern LIST = Pattern.compile("\\[.*?\\]", Pattern.DOTALL);

    private SuggestedQuestions() {
    }

    /** The past turns, oldest first, one line per query and answer. */
    static String histories(List<Message> messages) {
        List<String> lines = new ArrayList<>();
        for (Message message : messages) {
            lines.add("Human: " + message.query());
            lines.add("Assistant: " + message.answer());
        }
        return String.join("\n", lines);
    }

    static String prompt(List<Message> messages) {
        return histories(messages) + "\n" + INSTRUCTION + "\nquestions:\n";
    }

    /** The questions in the model's answer, at most three; none when it holds no JSON list of texts. */
    static List<String> parse(String answer) {
        Matcher match = LIST.matcher(answer.strip());
        if (!match.find()) {
            return List.of();
        }
        Object parsed;
        try {
            parsed = JsonText.parse(match.group().strip());
        } catch (IllegalArgumentException e) {
            return List.of();
        }
        List<String> questions = new ArrayList<>();
        if (parsed instanceof List<?> items) {
            for (Object item : items) {
                if (item instanceof String question && questions.size() < MOST) {
                    questions.add(question);
                }
            }
        }
        return List.copyOf(questions);
    }
}
