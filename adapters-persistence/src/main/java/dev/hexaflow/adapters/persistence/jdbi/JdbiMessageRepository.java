package dev.hexaflow.adapters.persistence.jdbi;

import dev.hexaflow.application.chat.port.out.MessageRepository;
import dev.hexaflow.domain.chat.AgentThought;
import dev.hexaflow.domain.chat.FeedbackRating;
import dev.hexaflow.domain.chat.FeedbackSource;
import dev.hexaflow.domain.chat.Message;
import dev.hexaflow.domain.chat.MessageFeedback;
import dev.hexaflow.domain.chat.MessageFile;
import dev.hexaflow.domain.chat.MessageStatus;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jdbi.v3.core.Jdbi;
import org.jdbi.v3.core.statement.Query;

/**
 * Messages in {@code message} and feedback in {@code message_feedback}. A conversation's messages are ordered
 * by (created_at, id): ids are time-ordered, so two messages of one second keep the order they were made in.
 * Files and retriever resources are JSON in text columns.
 */
public final class JdbiMessageRepository implements MessageRepository {

    private static final String WITH_FEEDBACK = "SELECT m.*, f.id AS f_id, f.rating AS f_rating, f.content AS "
            + "f_content, f.from_source AS f_from_source, f.end_user_id AS f_end_user_id, f.created_at AS "
            + "f_created_at, f.updated_at AS f_updated_at FROM message m LEFT JOIN message_feedback f ON "
            + "f.message_id = m.id AND f.from_source = 'user' ";

    private final Jdbi jdbi;

    public JdbiMessageRepository(Jdbi jdbi) {
        this.jdbi = jdbi;
    }

    @Override
    public void add(Message message) {
        jdbi.useHandle(handle -> handle.createUpdate("INSERT INTO message (id, conversation_id, app_id, "
                + "end_user_id, parent_message_id, inputs, query_text, answer, status, error, workflow_run_id, "
                + "task_id, message_tokens, answer_tokens, latency, files, retriever_resources, created_at) VALUES "
                + "(:id, :conversation_id, :app_id, :end_user_id, :parent_message_id, :inputs, :query_text, "
                + ":answer, :status, :error, :workflow_run_id, :task_id, :message_tokens, :answer_tokens, :latency, "
                + ":files, :retriever_resources, :created_at)")
                .bind("id", message.id()).bind("conversation_id", message.conversationId())
                .bind("app_id", message.appId()).bind("end_user_id", message.endUserId())
                .bind("parent_message_id", message.parentMessageId())
                .bind("inputs", JsonColumns.write(message.inputs())).bind("query_text", message.query())
                .bind("answer", message.answer()).bind("status", message.status().wireName())
                .bind("error", message.error()).bind("workflow_run_id", message.workflowRunId())
                .bind("task_id", message.taskId()).bind("message_tokens", message.messageTokens())
                .bind("answer_tokens", message.answerTokens()).bind("latency", message.latency())
                .bind("files", JsonColumns.write(files(message.files())))
                .bind("retriever_resources", JsonColumns.write(message.retrieverResources()))
                .bind("created_at", message.createdAt()).execute());
    }

    @Override
    public boolean finish(Message message) {
        int updated = jdbi.withHandle(handle -> handle.createUpdate("UPDATE message SET answer = :answer, "
                + "status = :status, error = :error, workflow_run_id = :workflow_run_id, message_tokens = "
                + ":message_tokens, answer_tokens = :answer_tokens, latency = :latency, files = :files, "
                + "retriever_resources = :retriever_resources, agent_thoughts = :agent_thoughts WHERE id = :id")
                .bind("id", message.id()).bind("answer", message.answer())
                .bind("status", message.status().wireName()).bind("error", message.error())
                .bind("workflow_run_id", message.workflowRunId())
                .bind("message_tokens", message.messageTokens()).bind("answer_tokens", message.answerTokens())
                .bind("latency", message.latency()).bind("files", JsonColumns.write(files(message.files())))
                .bind("retriever_resources", JsonColumns.write(message.retrieverResources()))
                .bind("agent_thoughts", JsonColumns.write(thoughts(message.agentThoughts()))).execute());
        return updated > 0;
    }

    @Override
    public List<Message> awaitingAnswer() {
        return jdbi.withHandle(handle -> handle.createQuery("SELECT * FROM message WHERE (status = :status AND "
                + "(answer IS NULL OR answer = '')) OR status = :paused ORDER BY created_at, id")
                .bind("status", MessageStatus.NORMAL.wireName()).bind("paused", MessageStatus.PAUSED.wireName()).map((rs, ctx) -> message(rs)).list());
    }

    @Override
    public Optional<Message> find(String appId, String endUserId, String messageId) {
        return jdbi.withHandle(handle -> handle.createQuery("SELECT * FROM message WHERE id = :id AND app_id = "
                + ":app_id AND end_user_id = :end_user_id").bind("id", messageId).bind("app_id", appId)
                .bind("end_user_id", endUserId).map((rs, ctx) -> message(rs)).findOne());
    }

    @Override
    public Optional<Message> findInConversation(String conversationId, String messageId) {
        return jdbi.withHandle(handle -> handle.createQuery("SELECT * FROM message WHERE id = :id AND "
                + "conversation_id = :conversation_id").bind("id", messageId)
                .bind("conversation_id", conversationId).map((rs, ctx) -> message(rs)).findOne());
    }

    @Override
    public MessagePage page(String conversationId, Message before, int limit) {
        String sql = WITH_FEEDBACK + "WHERE m.conversation_id = :conversation_id"
                + (before == null ? "" : " AND (m.created_at < :created_at OR (m.created_at = :created_at AND "
                        + "m.id < :before_id))")
                + " ORDER BY m.created_at DESC, m.id DESC LIMIT :limit";
        List<ListedMessage> newestFirst = jdbi.withHandle(handle -> {
            Query select = handle.createQuery(sql).bind("conversation_id", conversationId)
                    .bind("limit", limit + 1);
            if (before != null) {
                select.bind("created_at", before.createdAt()).bind("before_id", before.id());
            }
            return select.map((rs, ctx) -> new ListedMessage(message(rs), feedback(rs))).list();
        });
        boolean hasMore = newestFirst.size() > limit;
        List<ListedMessage> page = new ArrayList<>(hasMore ? newestFirst.subList(0, limit) : newestFirst);
        Collections.reverse(page);
        return new MessagePage(page, hasMore);
    }

    @Override
    public List<Message> last(String conversationId, int count) {
        List<Message> newestFirst = new ArrayList<>(jdbi.withHandle(handle -> handle.createQuery("SELECT * FROM "
                + "message WHERE conversation_id = :conversation_id ORDER BY created_at DESC, id DESC LIMIT :count")
                .bind("conversation_id", conversationId).bind("count", count).map((rs, ctx) -> message(rs))
                .list()));
        Collections.reverse(newestFirst);
        return List.copyOf(newestFirst);
    }

    @Override
    public Optional<Message> first(String conversationId) {
        return jdbi.withHandle(handle -> handle.createQuery("SELECT * FROM message WHERE conversation_id = "
                + ":conversation_id ORDER BY created_at, id LIMIT 1").bind("conversation_id", conversationId)
                .map((rs, ctx) -> message(rs)).findOne());
    }

    @Override
    public long count(String conversationId) {
        return jdbi.withHandle(handle -> handle.createQuery("SELECT COUNT(*) FROM message WHERE conversation_id = "
                + ":conversation_id").bind("conversation_id", conversationId).mapTo(Long.class).one());
    }

    @Override
    public void setFeedback(MessageFeedback feedback) {
        jdbi.useHandle(handle -> handle.createUpdate(SqlDialect.of(jdbi).upsert("message_feedback",
                "message_id, from_source", "id, app_id, conversation_id, message_id, rating, content, from_source, "
                + "end_user_id, created_at, updated_at", ":id, :app_id, :conversation_id, :message_id, :rating, "
                + ":content, :from_source, :end_user_id, :created_at, :updated_at"))
                .bind("id", feedback.id()).bind("app_id", feedback.appId())
                .bind("conversation_id", feedback.conversationId()).bind("message_id", feedback.messageId())
                .bind("rating", feedback.rating().wireName()).bind("content", feedback.content())
                .bind("from_source", feedback.fromSource().wireName()).bind("end_user_id", feedback.endUserId())
                .bind("created_at", feedback.createdAt()).bind("updated_at", feedback.updatedAt()).execute());
    }

    @Override
    public Optional<MessageFeedback> findFeedback(String messageId, FeedbackSource source) {
        return jdbi.withHandle(handle -> handle.createQuery("SELECT * FROM message_feedback WHERE message_id = "
                + ":message_id AND from_source = :from_source").bind("message_id", messageId)
                .bind("from_source", source.wireName()).map((rs, ctx) -> storedFeedback(rs)).findOne());
    }

    @Override
    public boolean removeFeedback(String messageId, FeedbackSource source) {
        return jdbi.withHandle(handle -> handle.createUpdate("DELETE FROM message_feedback WHERE message_id = "
                + ":message_id AND from_source = :from_source").bind("message_id", messageId)
                .bind("from_source", source.wireName()).execute()) > 0;
    }

    @Override
    public List<MessageFeedback> feedbacks(String appId, int page, int limit) {
        return jdbi.withHandle(handle -> handle.createQuery("SELECT * FROM message_feedback WHERE app_id = :app_id "
                + "ORDER BY created_at DESC, id DESC LIMIT :limit OFFSET :offset").bind("app_id", appId)
                .bind("limit", limit).bind("offset", (long) (page - 1) * limit)
                .map((rs, ctx) -> storedFeedback(rs)).list());
    }

    private static Message message(ResultSet rs) throws SQLException {
        Map<String, Object> inputs = JsonColumns.readMap(rs.getString("inputs"));
        return new Message(rs.getString("id"), rs.getString("conversation_id"), rs.getString("app_id"),
                rs.getString("end_user_id"), rs.getString("parent_message_id"), inputs, rs.getString("query_text"),
                rs.getString("answer"), MessageStatus.fromWire(rs.getString("status")), rs.getString("error"),
                rs.getString("workflow_run_id"), rs.getString("task_id"), rs.getLong("message_tokens"),
                rs.getLong("answer_tokens"), rs.getDouble("latency"), files(rs.getString("files")),
                maps(JsonColumns.read(rs.getString("retriever_resources"))), rs.getLong("created_at"),
                thoughts(rs.getString("agent_thoughts")));
    }

    /** An agent's rounds as JSON objects; the tools' inputs and answers stay objects by tool name. */
    private static List<Map<String, Object>> thoughts(List<AgentThought> thoughts) {
        List<Map<String, Object>> rows = new ArrayList<>();
        for (AgentThought thought : thoughts) {
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("id", thought.id());
            row.put("position", thought.position());
            row.put("thought", thought.thought());
            row.put("tool", thought.tool());
            row.put("tool_input", thought.toolInput());
            row.put("observation", thought.observation());
            row.put("created_at", thought.createdAt());
            rows.add(row);
        }
        return rows;
    }

    @SuppressWarnings("unchecked")
    private static List<AgentThought> thoughts(String column) {
        if (column == null) {
            return List.of();
        }
        List<AgentThought> thoughts = new ArrayList<>();
        for (Map<String, Object> row : maps(JsonColumns.read(column))) {
            thoughts.add(new AgentThought((String) row.get("id"), ((Number) row.get("position")).intValue(),
                    (String) row.get("thought"), (String) row.get("tool"),
                    row.get("tool_input") instanceof Map<?, ?> input ? (Map<String, Object>) input : Map.of(),
                    row.get("observation") instanceof Map<?, ?> seen ? (Map<String, Object>) seen : Map.of(),
                    ((Number) row.get("created_at")).longValue()));
        }
        return thoughts;
    }

    private static MessageFeedback feedback(ResultSet rs) throws SQLException {
        String id = rs.getString("f_id");
        if (id == null) {
            return null;
        }
        return new MessageFeedback(id, rs.getString("app_id"), rs.getString("conversation_id"),
                rs.getString("id"), FeedbackRating.fromWire(rs.getString("f_rating")), rs.getString("f_content"),
                FeedbackSource.fromWire(rs.getString("f_from_source")), rs.getString("f_end_user_id"),
                rs.getLong("f_created_at"), rs.getLong("f_updated_at"));
    }

    private static MessageFeedback storedFeedback(ResultSet rs) throws SQLException {
        return new MessageFeedback(rs.getString("id"), rs.getString("app_id"), rs.getString("conversation_id"),
                rs.getString("message_id"), FeedbackRating.fromWire(rs.getString("rating")),
                rs.getString("content"), FeedbackSource.fromWire(rs.getString("from_source")),
                rs.getString("end_user_id"), rs.getLong("created_at"), rs.getLong("updated_at"));
    }

    private static List<Map<String, Object>> files(List<MessageFile> files) {
        List<Map<String, Object>> rows = new ArrayList<>();
        for (MessageFile file : files) {
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("id", file.id());
            row.put("filename", file.filename());
            row.put("type", file.type());
            row.put("url", file.url());
            row.put("mime_type", file.mimeType());
            row.put("size", file.size());
            row.put("transfer_method", file.transferMethod());
            row.put("belongs_to", file.belongsTo());
            row.put("upload_file_id", file.uploadFileId());
            rows.add(row);
        }
        return rows;
    }

    private static List<MessageFile> files(String json) {
        List<MessageFile> files = new ArrayList<>();
        for (Map<String, Object> row : maps(JsonColumns.read(json))) {
            files.add(new MessageFile((String) row.get("id"), (String) row.get("filename"),
                    (String) row.get("type"), (String) row.get("url"), (String) row.get("mime_type"),
                    row.get("size") instanceof Number size ? size.longValue() : 0,
                    (String) row.get("transfer_method"), (String) row.get("belongs_to"),
                    (String) row.get("upload_file_id")));
        }
        return files;
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> maps(Object value) {
        List<Map<String, Object>> maps = new ArrayList<>();
        if (value instanceof List<?> list) {
            for (Object item : list) {
                if (item instanceof Map<?, ?> map) {
                    maps.add((Map<String, Object>) map);
                }
            }
        }
        return maps;
    }
}
