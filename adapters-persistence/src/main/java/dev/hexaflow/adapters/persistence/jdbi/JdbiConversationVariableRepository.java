package dev.hexaflow.adapters.persistence.jdbi;

import dev.hexaflow.application.chat.port.out.ConversationVariableRepository;
import dev.hexaflow.domain.chat.KeptVariable;
import dev.hexaflow.domain.chat.VariableNameFilter;
import dev.hexaflow.domain.workflow.ConversationVariable;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.jdbi.v3.core.Jdbi;
import org.jdbi.v3.core.statement.PreparedBatch;
import org.jdbi.v3.core.statement.Query;

/**
 * Conversation variables in {@code conversation_variable}, the value as JSON text. Variables made together (a
 * new conversation's) share a second: their DSL position orders them, so a page never skips one.
 */
public final class JdbiConversationVariableRepository implements ConversationVariableRepository {

    private static final String ORDER = " ORDER BY created_at, position";

    private final Jdbi jdbi;

    public JdbiConversationVariableRepository(Jdbi jdbi) {
        this.jdbi = jdbi;
    }

    @Override
    public void addAll(List<KeptVariable> variables) {
        if (variables.isEmpty()) {
            return;
        }
        jdbi.useTransaction(handle -> {
            PreparedBatch batch = handle.prepareBatch("INSERT INTO conversation_variable (conversation_id, id, name, "
                    + "value_type, var_value, description, position, created_at, updated_at) VALUES "
                    + "(:conversation_id, :id, :name, :value_type, :var_value, :description, :position, "
                    + ":created_at, :updated_at)");
            for (KeptVariable kept : variables) {
                ConversationVariable variable = kept.variable();
                batch.bind("conversation_id", kept.conversationId()).bind("id", variable.id())
                        .bind("name", variable.name()).bind("value_type", variable.valueType())
                        .bind("var_value", JsonColumns.write(variable.value()))
                        .bind("description", variable.description()).bind("position", kept.position())
                        .bind("created_at", kept.createdAt()).bind("updated_at", kept.updatedAt()).add();
            }
            batch.execute();
        });
    }

    @Override
    public List<KeptVariable> all(String conversationId) {
        return jdbi.withHandle(handle -> handle.createQuery("SELECT * FROM conversation_variable WHERE "
                + "conversation_id = :conversation_id" + ORDER).bind("conversation_id", conversationId)
                .map((rs, ctx) -> variable(rs)).list());
    }

    @Override
    public Optional<KeptVariable> find(String conversationId, String variableId) {
        return jdbi.withHandle(handle -> handle.createQuery("SELECT * FROM conversation_variable WHERE "
                + "conversation_id = :conversation_id AND id = :id").bind("conversation_id", conversationId)
                .bind("id", variableId).map((rs, ctx) -> variable(rs)).findOne());
    }

    @Override
    public void update(KeptVariable variable) {
        updateAll(List.of(variable));
    }

    @Override
    public void updateAll(List<KeptVariable> variables) {
        if (variables.isEmpty()) {
            return;
        }
        jdbi.useTransaction(handle -> {
            PreparedBatch batch = handle.prepareBatch("UPDATE conversation_variable SET var_value = :var_value, "
                    + "updated_at = :updated_at WHERE conversation_id = :conversation_id AND id = :id");
            for (KeptVariable kept : variables) {
                batch.bind("conversation_id", kept.conversationId()).bind("id", kept.id())
                        .bind("var_value", JsonColumns.write(kept.variable().value()))
                        .bind("updated_at", kept.updatedAt()).add();
            }
            int[] counts = batch.execute();
            for (int i = 0; i < counts.length; i++) {
                if (counts[i] == 0) {
                    throw new IllegalStateException("conversation " + variables.get(i).conversationId()
                            + " has no variable " + variables.get(i).id());
                }
            }
        });
    }

    @Override
    public VariablePage page(String conversationId, KeptVariable after, VariableNameFilter filter, int limit) {
        String sql = "SELECT * FROM conversation_variable WHERE conversation_id = :conversation_id"
                + (filter == null ? "" : " AND POSITION(:name IN LOWER(name)) > 0")
                + (after == null ? "" : " AND (created_at > :created_at OR (created_at = :created_at AND "
                        + "position > :position))")
                + ORDER + " LIMIT :limit";
        List<KeptVariable> rows = jdbi.withHandle(handle -> {
            Query select = handle.createQuery(sql).bind("conversation_id", conversationId)
                    .bind("limit", limit + 1);
            if (filter != null) {
                select.bind("name", filter.text().toLowerCase(Locale.ROOT));
            }
            if (after != null) {
                select.bind("created_at", after.createdAt()).bind("position", after.position());
            }
            return select.map((rs, ctx) -> variable(rs)).list();
        });
        boolean hasMore = rows.size() > limit;
        return new VariablePage(hasMore ? rows.subList(0, limit) : rows, hasMore);
    }

    private static KeptVariable variable(ResultSet rs) throws SQLException {
        ConversationVariable variable = new ConversationVariable(rs.getString("id"), rs.getString("name"),
                rs.getString("value_type"), JsonColumns.read(rs.getString("var_value")),
                rs.getString("description"));
        return new KeptVariable(rs.getString("conversation_id"), variable, rs.getInt("position"),
                rs.getLong("created_at"), rs.getLong("updated_at"));
    }
}
