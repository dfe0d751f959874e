package dev.hexaflow.adapters.persistence.jdbi;

import dev.hexaflow.application.chat.port.out.ConversationRepository;
import dev.hexaflow.domain.chat.Conversation;
import dev.hexaflow.domain.chat.ConversationStatus;
import dev.hexaflow.domain.chat.ConversationSort;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jdbi.v3.core.Jdbi;
import org.jdbi.v3.core.statement.Query;

/**
 * Conversations in {@code conversation}; deleting one deletes its messages, feedback and variables by the
 * tables' cascade, in the same statement.
 */
public final class JdbiConversationRepository implements ConversationRepository {

    private final Jdbi jdbi;

    public JdbiConversationRepository(Jdbi jdbi) {
        this.jdbi = jdbi;
    }

    @Override
    public void add(Conversation conversation) {
        jdbi.useHandle(handle -> handle.createUpdate("INSERT INTO conversation (id, app_id, end_user_id, name, "
                + "inputs, status, introduction, created_at, updated_at) VALUES (:id, :app_id, :end_user_id, :name, "
                + ":inputs, :status, :introduction, :created_at, :updated_at)")
                .bind("id", conversation.id()).bind("app_id", conversation.appId())
                .bind("end_user_id", conversation.endUserId()).bind("name", conversation.name())
                .bind("inputs", JsonColumns.write(conversation.inputs()))
                .bind("status", conversation.status().wireName())
                .bind("introduction", conversation.introduction())
                .bind("created_at", conversation.createdAt()).bind("updated_at", conversation.updatedAt())
                .execute());
    }

    @Override
    public Optional<Conversation> find(String appId, String endUserId, String conversationId) {
        return jdbi.withHandle(handle -> handle.createQuery("SELECT * FROM conversation WHERE id = :id AND "
                + "app_id = :app_id AND end_user_id = :end_user_id").bind("id", conversationId)
                .bind("app_id", appId).bind("end_user_id", endUserId)
                .map((rs, ctx) -> conversation(rs)).findOne());
    }

    @Override
    public Optional<Conversation> findInApp(String appId, String conversationId) {
        return jdbi.withHandle(handle -> handle.createQuery("SELECT * FROM conversation WHERE id = :id AND "
                + "app_id = :app_id").bind("id", conversationId).bind("app_id", appId)
                .map((rs, ctx) -> conversation(rs)).findOne());
    }

    @Override
    public void update(Conversation conversation) {
        int updated = jdbi.withHandle(handle -> handle.createUpdate("UPDATE conversation SET name = :name, "
                + "status = :status, updated_at = :updated_at WHERE id = :id").bind("id", conversation.id())
                .bind("name", conversation.name()).bind("status", conversation.status().wireName())
                .bind("updated_at", conversation.updatedAt()).execute());
        if (updated == 0) {
            throw new IllegalStateException("no conversation " + conversation.id() + " to update");
        }
    }

    @Override
    public boolean delete(String appId, String endUserId, String conversationId) {
        return jdbi.withHandle(handle -> handle.createUpdate("DELETE FROM conversation WHERE id = :id AND "
                + "app_id = :app_id AND end_user_id = :end_user_id").bind("id", conversationId)
                .bind("app_id", appId).bind("end_user_id", endUserId).execute()) > 0;
    }

    @Override
    public ConversationPage list(ConversationQuery query) {
        ConversationSort sort = query.sort();
        String column = sort.byUpdate() ? "updated_at" : "created_at";
        String direction = sort.ascending() ? "ASC" : "DESC";
        String beyond = sort.ascending() ? ">" : "<";
        StringBuilder sql = new StringBuilder("SELECT * FROM conversation WHERE app_id = :app_id");
        if (query.endUserId() != null) {
            sql.append(" AND end_user_id = :end_user_id");
        }
        if (query.after() != null) {
            sql.append(" AND (").append(column).append(' ').append(beyond).append(" :key OR (").append(column)
                    .append(" = :key AND id ").append(beyond).append(" :after_id))");
        }
        sql.append(" ORDER BY ").append(column).append(' ').append(direction).append(", id ").append(direction)
                .append(" LIMIT :limit");
        List<Conversation> rows = jdbi.withHandle(handle -> {
            Query select = handle.createQuery(sql.toString()).bind("app_id", query.appId())
                    .bind("limit", query.limit() + 1);
            if (query.endUserId() != null) {
                select.bind("end_user_id", query.endUserId());
            }
            if (query.after() != null) {
                select.bind("key", sort.key(query.after())).bind("after_id", query.after().id());
            }
            return select.map((rs, ctx) -> conversation(rs)).list();
        });
        boolean hasMore = rows.size() > query.limit();
        return new ConversationPage(hasMore ? rows.subList(0, query.limit()) : rows, hasMore);
    }

    @SuppressWarnings("unchecked")
    private static Conversation conversation(ResultSet rs) throws SQLException {
        Object inputs = JsonColumns.read(rs.getString("inputs"));
        return new Conversation(rs.getString("id"), rs.getString("app_id"), rs.getString("end_user_id"),
                rs.getString("name"), inputs instanceof Map<?, ?> map ? (Map<String, Object>) map : Map.of(),
                ConversationStatus.fromWire(rs.getString("status")), rs.getString("introduction"),
                rs.getLong("created_at"), rs.getLong("updated_at"));
    }
}
