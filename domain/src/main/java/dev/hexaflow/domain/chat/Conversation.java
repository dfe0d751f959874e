package dev.hexaflow.domain.chat;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A chat between one end user and one app, as Dify's SimpleConversation shows it: its name (first from the
 * query, later renamed), the inputs of its first turn, its status and the app's opening statement as it read for
 * those inputs. Times are Unix seconds.
 */
public record Conversation(String id, String appId, String endUserId, String name, Map<String, Object> inputs,
        ConversationStatus status, String introduction, long createdAt, long updatedAt) {

    /** The longest name a conversation keeps: Dify's column for it holds 255 characters. */
    public static final int MAX_NAME_LENGTH = 255;

    /** Dify's name for a conversation begun without a query. */
    public static final String UNNAMED = "New conversation";
    /** How many characters of the query a new conversation's name keeps. */
    public static final int NAME_FROM_QUERY = 20;
    /** The variables Dify's prompt template parser fills: {{name}}, and its three special keys. */
    private static final Pattern TEMPLATE_KEY = Pattern.compile(
            "\\{\\{([a-zA-Z_][a-zA-Z0-9_]{0,29}|#histories#|#query#|#context#)\\}\\}");

    public Conversation {
        requireText(id, "id");
        requireText(appId, "appId");
        requireText(endUserId, "endUserId");
        name = name == null ? "" : name;
        inputs = inputs == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(inputs));
        if (status == null) {
            throw new IllegalArgumentException("a conversation needs a status");
        }
        introduction = introduction == null ? "" : introduction;
        if (updatedAt < createdAt) {
            throw new IllegalArgumentException("a conversation's updatedAt (" + updatedAt
                    + ") comes before its createdAt (" + createdAt + ")");
        }
    }

    /** A conversation begun now by its first query, named as Dify names it. */
    public static Conversation start(String id, String appId, String endUserId, String query,
            Map<String, Object> inputs, String introduction, long now) {
        return new Conversation(id, appId, endUserId, firstName(query), inputs, ConversationStatus.NORMAL,
                introduction, now, now);
    }

    /**
     * Dify's first name for a conversation: the query (or "New conversation" when there is none), cut to its
     * first 20 characters followed by "…" when it is longer.
     */
    public static String firstName(String query) {
        String text = query == null || query.isEmpty() ? UNNAMED : query;
        if (text.codePointCount(0, text.length()) <= NAME_FROM_QUERY) {
            return text;
        }
        return text.substring(0, text.offsetByCodePoints(0, NAME_FROM_QUERY)) + "…";
    }

    /**
     * The app's opening statement as a new conversation keeps it (its introduction): each {{name}} the inputs
     * hold is filled in, the others stay as written, and a filled-in value's own {{...}} become {...}, as
     * Dify's prompt template parser does.
     */
    public static String introduction(String openingStatement, Map<String, Object> inputs) {
        if (openingStatement == null || openingStatement.isEmpty()) {
            return "";
        }
        Matcher keys = TEMPLATE_KEY.matcher(openingStatement);
        StringBuilder filled = new StringBuilder();
        while (keys.find()) {
            String key = keys.group(1);
            String text = inputs != null && inputs.containsKey(key) && inputs.get(key) != null
                    ? TEMPLATE_KEY.matcher(String.valueOf(inputs.get(key))).replaceAll("{$1}")
                    : keys.group();
            keys.appendReplacement(filled, Matcher.quoteReplacement(text));
        }
        keys.appendTail(filled);
        return filled.toString();
    }

    /** Whether a new message may join it. */
    public boolean isOpen() {
        return status == ConversationStatus.NORMAL;
    }

    public Conversation renamed(String newName, long now) {
        return new Conversation(id, appId, endUserId, newName, inputs, status, introduction, createdAt,
                Math.max(now, createdAt));
    }

    /** The conversation with the title a model gave it, which Dify does not count as a change. */
    public Conversation titled(String title) {
        return new Conversation(id, appId, endUserId, title, inputs, status, introduction, createdAt, updatedAt);
    }

    /** The same conversation with a new turn taken at {@code now}. */
    public Conversation touched(long now) {
        return new Conversation(id, appId, endUserId, name, inputs, status, introduction, createdAt,
                Math.max(now, updatedAt));
    }

    static void requireText(String value, String field) {
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException("a conversation needs its " + field);
        }
    }
}
