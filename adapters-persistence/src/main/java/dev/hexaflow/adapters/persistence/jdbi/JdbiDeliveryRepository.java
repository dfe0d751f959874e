package dev.hexaflow.adapters.persistence.jdbi;

import dev.hexaflow.application.webhooks.port.out.DeliveryRepository;
import dev.hexaflow.domain.webhook.CallbackUrl;
import dev.hexaflow.domain.webhook.Delivery;
import dev.hexaflow.domain.webhook.DeliveryAttempt;
import dev.hexaflow.domain.webhook.DeliveryKind;
import dev.hexaflow.domain.webhook.DeliveryState;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jdbi.v3.core.Jdbi;

/**
 * Deliveries in {@code webhook_delivery}, their attempts in {@code webhook_attempt}. A claim is an UPDATE that
 * only succeeds on a row still pending, due and unclaimed: of several instances asking at once, one updates it.
 * On PostgreSQL the row is chosen and claimed in one statement that passes over rows another claimer holds
 * ({@code SKIP LOCKED}), so instances polling at once each take a different delivery rather than race for the
 * oldest. Its {@code claimed_until} is the claim's token: extending or settling a claim matches on it, so a sender
 * whose claim ran out and was taken again finds no row to change.
 */
public final class JdbiDeliveryRepository implements DeliveryRepository {

    private static final String PENDING = DeliveryState.PENDING.wireName();

    private final Jdbi jdbi;
    private final SqlDialect dialect;

    public JdbiDeliveryRepository(Jdbi jdbi) {
        this.jdbi = jdbi;
        this.dialect = SqlDialect.of(jdbi);
    }

    @Override
    public void add(Delivery delivery) {
        jdbi.useHandle(handle -> handle.createUpdate("INSERT INTO webhook_delivery (id, app_id, run_id, url, receiver, "
                + "state, attempts, next_attempt_at, claimed_until, last_status, last_error, created_at, due_since, "
                + "kind, payload) VALUES (:id, :app_id, :run_id, :url, :receiver, :state, :attempts, "
                + ":next_attempt_at, 0, :last_status, :last_error, :created_at, :due_since, :kind, :payload)")
                .bind("id", delivery.id()).bind("app_id", delivery.appId()).bind("run_id", delivery.runId())
                .bind("url", delivery.url().value()).bind("receiver", delivery.url().receiver()).bind("state", delivery.state().wireName())
                .bind("attempts", delivery.attempts()).bind("next_attempt_at", delivery.nextAttemptAt())
                .bind("last_status", delivery.lastStatus()).bind("last_error", delivery.lastError())
                .bind("created_at", delivery.createdAt()).bind("due_since", delivery.dueSince())
                .bind("kind", delivery.kind().wireName()).bind("payload", delivery.payload()).execute());
    }

    @Override
    public void discard(String id) {
        jdbi.useHandle(handle -> handle.createUpdate("DELETE FROM webhook_delivery WHERE id = :id").bind("id", id)
                .execute());
    }

    @Override
    public int pruneEnded(long createdBefore) {
        // Attempts go with their delivery (ON DELETE CASCADE).
        return jdbi.withHandle(handle -> handle.createUpdate("DELETE FROM webhook_delivery WHERE state IN "
                + "(:delivered, :failed) AND created_at < :before")
                .bind("delivered", DeliveryState.DELIVERED.wireName()).bind("failed", DeliveryState.FAILED.wireName())
                .bind("before", createdBefore).execute());
    }

    @Override
    public boolean move(Delivery next, DeliveryState from, DeliveryAttempt attempt) {
        return replace(next, "state = :from", Map.of("from", from.wireName()), attempt);
    }

    @Override
    public boolean settle(Claim claim, Delivery next, DeliveryAttempt attempt) {
        return replace(next, "state = :from AND claimed_until = :mine",
                Map.of("from", PENDING, "mine", claim.until()), attempt);
    }

    /** Writes {@code next} over the row that still matches {@code condition}, with its attempt, and frees it. */
    private boolean replace(Delivery next, String condition, Map<String, Object> bindings,
            DeliveryAttempt attempt) {
        return jdbi.inTransaction(handle -> {
            int moved = handle.createUpdate("UPDATE webhook_delivery SET state = :state, attempts = :attempts, "
                    + "next_attempt_at = :next_attempt_at, claimed_until = 0, last_status = :last_status, "
                    + "last_error = :last_error, due_since = :due_since WHERE id = :id AND " + condition)
                    .bind("state", next.state().wireName()).bind("attempts", next.attempts())
                    .bind("next_attempt_at", next.nextAttemptAt()).bind("last_status", next.lastStatus())
                    .bind("last_error", TextColumns.clip(next.lastError())).bind("due_since", next.dueSince())
                    .bind("id", next.id()).bindMap(bindings).execute();
            if (moved > 0 && attempt != null) {
                handle.createUpdate("INSERT INTO webhook_attempt (delivery_id, number, attempted_at, status_code, "
                        + "error, elapsed_millis) VALUES (:id, :number, :at, :status, :error, :elapsed)")
                        .bind("id", next.id()).bind("number", attempt.number()).bind("at", attempt.attemptedAt())
                        .bind("status", attempt.statusCode()).bind("error", TextColumns.clip(attempt.error()))
                        .bind("elapsed", attempt.elapsedMillis()).execute();
            }
            return moved > 0;
        });
    }

    @Override
    public List<Delivery> awaitingRun(Delivery after, int limit) {
        String from = after == null ? ""
                : " AND (created_at > :after_at OR (created_at = :after_at AND id > :after_id))";
        return jdbi.withHandle(handle -> {
            var query = handle.createQuery("SELECT * FROM webhook_delivery WHERE state = :state" + from
                    + " ORDER BY created_at, id FETCH FIRST :limit ROWS ONLY")
                    .bind("state", DeliveryState.AWAITING_RUN.wireName()).bind("limit", limit);
            if (after != null) {
                query.bind("after_at", after.createdAt()).bind("after_id", after.id());
            }
            return query.map((rs, ctx) -> delivery(rs)).list();
        });
    }

    @Override
    public Optional<Claim> claimNext(long now, long until, PassOver passOver) {
        String due = "state = :state AND next_attempt_at <= :now AND claimed_until < :now"
                + (passOver.apps().isEmpty() ? "" : " AND app_id NOT IN (<skipped_apps>)")
                + (passOver.receivers().isEmpty() ? "" : " AND receiver NOT IN (<skipped_receivers>)");
        // H2 has no UPDATE ... RETURNING, and only the claimers of its one process to race: it keeps the read of a
        // few candidates and a compare-and-set on each.
        return dialect == SqlDialect.POSTGRESQL ? claimSkippingLocked(due, now, until, passOver)
                : claimByCompareAndSet(due, now, until, passOver);
    }

    private static <S extends org.jdbi.v3.core.statement.SqlStatement<S>> S passingOver(S statement,
            PassOver passOver) {
        if (!passOver.apps().isEmpty()) {
            statement.bindList("skipped_apps", List.copyOf(passOver.apps()));
        }
        if (!passOver.receivers().isEmpty()) {
            statement.bindList("skipped_receivers", List.copyOf(passOver.receivers()));
        }
        return statement;
    }

    /**
     * The oldest due row no other claimer holds at this moment, locked, claimed and answered in one statement: of
     * several instances asking at once, each gets its own row and none waits for another's. A row locked by an
     * UPDATE that has since committed is read again by PostgreSQL and taken only if it is still due.
     */
    private Optional<Claim> claimSkippingLocked(String due, long now, long until, PassOver passOver) {
        return jdbi.withHandle(handle -> {
            var claim = handle.createQuery("UPDATE webhook_delivery SET claimed_until = :until WHERE id = "
                    + "(SELECT id FROM webhook_delivery WHERE " + due + " ORDER BY next_attempt_at, id LIMIT 1 "
                    + "FOR UPDATE SKIP LOCKED) RETURNING *").bind("until", until).bind("state", PENDING)
                    .bind("now", now);
            return passingOver(claim, passOver).map((rs, ctx) -> new Claim(delivery(rs), until)).findOne();
        });
    }

    private Optional<Claim> claimByCompareAndSet(String due, long now, long until, PassOver passOver) {
        // A few candidates, so that one another claimer took in between does not leave this poll empty.
        List<Delivery> candidates = jdbi.withHandle(handle -> {
            var query = handle.createQuery("SELECT * FROM webhook_delivery WHERE " + due
                    + " ORDER BY next_attempt_at, id FETCH FIRST 8 ROWS ONLY").bind("state", PENDING)
                    .bind("now", now);
            return passingOver(query, passOver).map((rs, ctx) -> delivery(rs)).list();
        });
        for (Delivery delivery : candidates) {
            int won = jdbi.withHandle(handle -> handle.createUpdate("UPDATE webhook_delivery SET claimed_until = "
                    + ":until WHERE id = :id AND state = :state AND claimed_until < :now").bind("until", until)
                    .bind("id", delivery.id()).bind("state", PENDING).bind("now", now).execute());
            if (won == 1) {
                return Optional.of(new Claim(delivery, until));
            }
        }
        return Optional.empty();
    }

    @Override
    public Optional<Claim> extend(Claim claim, long until) {
        int held = jdbi.withHandle(handle -> handle.createUpdate("UPDATE webhook_delivery SET claimed_until = "
                + ":until WHERE id = :id AND state = :state AND claimed_until = :mine").bind("until", until)
                .bind("id", claim.delivery().id()).bind("state", PENDING).bind("mine", claim.until()).execute());
        return held == 1 ? Optional.of(new Claim(claim.delivery(), until)) : Optional.empty();
    }

    @Override
    public DeliveryPage list(String appId, int page, int limit) {
        return jdbi.withHandle(handle -> {
            long total = handle.createQuery("SELECT COUNT(*) FROM webhook_delivery WHERE app_id = :app_id")
                    .bind("app_id", appId).mapTo(Long.class).one();
            List<Delivery> deliveries = handle.createQuery("SELECT * FROM webhook_delivery WHERE app_id = :app_id "
                    + "ORDER BY created_at DESC, id DESC OFFSET :offset ROWS FETCH NEXT :limit ROWS ONLY")
                    .bind("app_id", appId).bind("offset", (long) (page - 1) * limit).bind("limit", limit)
                    .map((rs, ctx) -> delivery(rs)).list();
            Map<String, List<DeliveryAttempt>> attempts = new LinkedHashMap<>();
            for (Delivery delivery : deliveries) {
                attempts.put(delivery.id(), handle.createQuery("SELECT * FROM webhook_attempt WHERE delivery_id = "
                        + ":id ORDER BY number").bind("id", delivery.id()).map((rs, ctx) -> attempt(rs)).list());
            }
            List<DeliveryRecord> items = deliveries.stream()
                    .map(d -> new DeliveryRecord(d, attempts.get(d.id()))).toList();
            return new DeliveryPage(page, limit, total, (long) page * limit < total, items);
        });
    }

    @Override
    public Optional<Delivery> completionOf(String runId) {
        return jdbi.withHandle(handle -> handle.createQuery("SELECT * FROM webhook_delivery WHERE run_id = :run_id "
                + "AND kind = :kind ORDER BY created_at, id FETCH FIRST 1 ROWS ONLY").bind("run_id", runId)
                .bind("kind", DeliveryKind.COMPLETION.wireName()).map((rs, ctx) -> delivery(rs)).findOne());
    }

    @Override
    public Optional<Delivery> find(String id) {
        return jdbi.withHandle(handle -> handle.createQuery("SELECT * FROM webhook_delivery WHERE id = :id")
                .bind("id", id).map((rs, ctx) -> delivery(rs)).findOne());
    }

    private static Delivery delivery(ResultSet rs) throws SQLException {
        return new Delivery(rs.getString("id"), rs.getString("app_id"), rs.getString("run_id"),
                new CallbackUrl(rs.getString("url")), DeliveryState.ofWireName(rs.getString("state")),
                rs.getInt("attempts"), rs.getLong("next_attempt_at"), (Integer) rs.getObject("last_status"),
                rs.getString("last_error"), rs.getLong("created_at"), (Long) rs.getObject("due_since"),
                DeliveryKind.ofWireName(rs.getString("kind")), rs.getString("payload"));
    }

    private static DeliveryAttempt attempt(ResultSet rs) throws SQLException {
        return new DeliveryAttempt(rs.getInt("number"), rs.getLong("attempted_at"),
                (Integer) rs.getObject("status_code"), rs.getString("error"), rs.getLong("elapsed_millis"));
    }

    /** Errors are kept to their column's width: a receiver's reason may be long. */
    private static final class TextColumns {
        private static final int MAX = 4000;

        static String clip(String text) {
            return text == null || text.length() <= MAX ? text : text.substring(0, MAX - 1) + "…";
        }
    }
}
