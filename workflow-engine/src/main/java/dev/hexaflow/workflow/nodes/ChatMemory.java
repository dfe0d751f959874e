package dev.hexaflow.workflow.nodes;

import dev.hexaflow.workflow.engine.ChatTurn;
import dev.hexaflow.workflow.engine.ChatTurn.PastMessage;
import dev.hexaflow.workflow.port.out.ModelProvider.ChatMessage;
import dev.hexaflow.domain.workflow.DataTree;
import dev.hexaflow.domain.workflow.VariablePool;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A model node's {@code memory} (chatflows): the conversation's earlier turns and the query, placed as Dify's
 * fetch_prompt_messages places them. Chat models get the prompt's messages (those that render empty dropped),
 * then each earlier turn as a user and an assistant message, then one user message from
 * {@code query_prompt_template} ({@code {{#sys.query#}}} when empty). Completion models get the turns as
 * "Human: ...\nAssistant: ..." lines (the {@code role_prefix}es) in place of {@code #histories#}, or before the
 * prompt. The window keeps the last {@code size} turns when enabled, else the last 500; then the oldest turns go
 * until the history fits 2000 tokens, counted here as a quarter of its characters, since Hexaflow has no
 * tokenizer for the model (Dify counts with the model's own). The question-classifier and parameter-extractor get
 * the same turns as text in their system prompt ({@link #histories}); the agent node gets them as messages between
 * its instruction and its query ({@link #forAgent}).
 */
final class ChatMemory {

    static final int UNWINDOWED_TURNS = 500;
    static final int MAX_HISTORY_TOKENS = 2000;

    private final boolean windowed;
    private final int size;
    private final String queryTemplate;
    private final String userPrefix;
    private final String assistantPrefix;

    private ChatMemory(boolean windowed, int size, String queryTemplate, String userPrefix, String assistantPrefix) {
        this.windowed = windowed;
        this.size = size;
        this.queryTemplate = queryTemplate;
        this.userPrefix = userPrefix;
        this.assistantPrefix = assistantPrefix;
    }

    /** The node's memory settings, or empty where it has none. */
    static Optional<ChatMemory> of(DataTree data) {
        if (!(data.get("memory") instanceof Map<?, ?>)) {
            return Optional.empty();
        }
        DataTree memory = data.tree("memory");
        DataTree window = memory.tree("window");
        DataTree prefixes = memory.tree("role_prefix");
        String query = memory.get("query_prompt_template") == null ? "" : memory.string("query_prompt_template", "");
        return Optional.of(new ChatMemory(window.bool("enabled", false), (int) Math.max(0,
                window.longValue("size", UNWINDOWED_TURNS)), query, prefixes.string("user", "Human"),
                prefixes.string("assistant", "Assistant")));
    }

    /**
     * An agent node's memory settings, or empty where it has none. Dify's agent node asks for the last
     * {@code window.size} turns whether the window is enabled or not ({@code message_limit=window.size or None}),
     * all of them (up to 500) when the size is 0 or missing; the token budget is the same as for a model node.
     */
    static Optional<ChatMemory> forAgent(DataTree data) {
        return of(data).map(memory -> {
            long size = data.tree("memory").tree("window").longValue("size", 0);
            return new ChatMemory(true, size > 0 ? (int) Math.min(size, UNWINDOWED_TURNS) : UNWINDOWED_TURNS,
                    memory.queryTemplate, memory.userPrefix, memory.assistantPrefix);
        });
    }

    /** The turns to remember as a user and an assistant message each, oldest first. */
    List<ChatMessage> historyMessages(ChatTurn turn) {
        List<ChatMessage> messages = new ArrayList<>();
        for (PastMessage past : turns(turn)) {
            messages.add(ChatMessage.of("user", past.query()));
            messages.add(ChatMessage.of("assistant", past.answer()));
        }
        return messages;
    }

    /** The query message's text: the template rendered, or sys.query where the template is empty. */
    String query(VariablePool pool) {
        return pool.render(queryTemplate.isEmpty() ? "{{#sys.query#}}" : queryTemplate);
    }

    /** The turns to remember, oldest first: the window, then pruned to the token budget. */
    List<PastMessage> turns(ChatTurn turn) {
        List<PastMessage> history = turn.history();
        int keep = windowed ? size : UNWINDOWED_TURNS;
        List<PastMessage> kept = new ArrayList<>(history.subList(Math.max(0, history.size() - keep),
                history.size()));
        while (!kept.isEmpty() && tokens(kept) > MAX_HISTORY_TOKENS) {
            kept.remove(0);
        }
        return kept;
    }

    /** A chat model's messages: the prompt's (empty ones dropped), the history, the query. */
    List<ChatMessage> chatMessages(List<ChatMessage> prompt, ChatTurn turn, VariablePool pool) {
        List<ChatMessage> messages = new ArrayList<>();
        for (ChatMessage message : prompt) {
            if (!message.text().isEmpty() || !message.imageUrls().isEmpty()) {
                messages.add(message);
            }
        }
        messages.addAll(historyMessages(turn));
        String query = query(pool);
        if (!query.isEmpty()) {
            messages.add(ChatMessage.of("user", query));
        }
        return messages;
    }

    /** A completion model's prompt with the history lines and the query put in. */
    String completionPrompt(String prompt, ChatTurn turn, VariablePool pool) {
        List<String> lines = new ArrayList<>();
        for (PastMessage past : turns(turn)) {
            lines.add(userPrefix + ": " + past.query());
            lines.add(assistantPrefix + ": " + past.answer());
        }
        String histories = String.join("\n", lines);
        String text = prompt.contains("#histories#") ? prompt.replace("#histories#", histories)
                : histories.isEmpty() ? prompt : histories + "\n" + prompt;
        String query = query(pool);
        if (query.isEmpty()) {
            return text;
        }
        return text.contains("#sys.query#") ? text.replace("#sys.query#", query) : text + "\n" + query;
    }

    /**
     * The history as the question-classifier and parameter-extractor put it in their system prompt, as Dify's
     * get_history_prompt_text does; empty where there is none.
     */
    String historiesText(ChatTurn turn) {
        List<String> lines = new ArrayList<>();
        for (PastMessage past : turns(turn)) {
            lines.add(userPrefix + ": " + past.query());
            lines.add(assistantPrefix + ": " + past.answer());
        }
        return lines.isEmpty() ? "" : " Here are the chat histories between human and assistant, inside "
                + "<histories></histories> XML tags.\n<histories>\n" + String.join("\n", lines) + "\n</histories>\n";
    }

    /** What a classifier or extractor adds to its system prompt: the histories in a chatflow, else nothing. */
    static String histories(Optional<ChatMemory> memory, Optional<ChatTurn> turn) {
        return memory.isPresent() && turn.isPresent() ? memory.get().historiesText(turn.get()) : "";
    }

    private static int tokens(List<PastMessage> turns) {
        int characters = 0;
        for (PastMessage past : turns) {
            characters += past.query().length() + past.answer().length();
        }
        return (characters + 3) / 4;
    }
}
