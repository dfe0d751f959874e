package dev.hexaflow.adapters.persistence.jdbi;

import dev.hexaflow.application.triggers.port.out.TriggerRepository;
import dev.hexaflow.domain.trigger.MissedTicks;
import dev.hexaflow.domain.trigger.ScheduleSpec;
import dev.hexaflow.domain.trigger.Tick;
import dev.hexaflow.domain.trigger.Trigger;
import dev.hexaflow.domain.trigger.TriggerKind;
import dev.hexaflow.domain.trigger.WebhookAuth;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.ZoneId;
import java.util.List;
import java.util.Optional;
import org.jdbi.v3.core.Jdbi;
import org.jdbi.v3.core.statement.Update;

/**
 * Triggers in {@code app_trigger} and the ticks their schedules fired in {@code trigger_tick}. A tick is claimed by
 * a conditional update of the schedule's next fire time (only the instance that finds it still at the tick changes
 * it) and recorded in the same transaction; the tick's primary key refuses a second record of it besides.
 */
public final class JdbiTriggerRepository implements TriggerRepository {

    private static final String COLUMNS = "id, app_id, node_id, kind, title, enabled, code, cron, timezone, "
            + "next_fire_at, missed_ticks, auth_kind, auth_header, auth_secret, created_at";

    private final Jdbi jdbi;
    private final String upsert;

    public JdbiTriggerRepository(Jdbi jdbi) {
        this.jdbi = jdbi;
        this.upsert = SqlDialect.of(jdbi).upsert("app_trigger", "id", COLUMNS, ":id, :app_id, :node_id, :kind, "
                + ":title, :enabled, :code, :cron, :timezone, :next_fire_at, :missed_ticks, :auth_kind, :auth_header, "
                + ":auth_secret, :created_at");
    }

    @Override
    public List<Trigger> ofApp(String appId) {
        return jdbi.withHandle(handle -> handle.createQuery("SELECT * FROM app_trigger WHERE app_id = :app_id "
                + "ORDER BY created_at, node_id").bind("app_id", appId).map((rs, ctx) -> trigger(rs)).list());
    }

    @Override
    public Optional<Trigger> find(String appId, String nodeId) {
        return jdbi.withHandle(handle -> handle.createQuery("SELECT * FROM app_trigger WHERE app_id = :app_id AND "
                + "node_id = :node_id").bind("app_id", appId).bind("node_id", nodeId)
                .map((rs, ctx) -> trigger(rs)).findOne());
    }

    @Override
    public Optional<Trigger> findByCode(String code) {
        return jdbi.withHandle(handle -> handle.createQuery("SELECT * FROM app_trigger WHERE code = :code")
                .bind("code", code).map((rs, ctx) -> trigger(rs)).findOne());
    }

    @Override
    public void save(Trigger trigger) {
        jdbi.useHandle(handle -> bind(handle.createUpdate(upsert), trigger).execute());
    }

    @Override
    public void remove(String triggerId) {
        jdbi.useTransaction(handle -> {
            handle.createUpdate("DELETE FROM trigger_tick WHERE trigger_id = :id").bind("id", triggerId).execute();
            handle.createUpdate("DELETE FROM app_trigger WHERE id = :id").bind("id", triggerId).execute();
        });
    }

    @Override
    public void republish(String triggerId, String title, ScheduleSpec schedule, Long nextFireAt) {
        String next = nextFireAt == null ? "" : ", next_fire_at = CASE WHEN enabled = TRUE THEN :next ELSE "
                + "next_fire_at END";
        jdbi.useHandle(handle -> {
            var update = handle.createUpdate("UPDATE app_trigger SET title = :title, cron = :cron, timezone = :zone"
                    + next + " WHERE id = :id").bind("id", triggerId).bind("title", title)
                    .bind("cron", schedule == null ? null : schedule.cron())
                    .bind("zone", schedule == null ? null : schedule.zone().getId());
            if (nextFireAt != null) {
                update.bind("next", nextFireAt.longValue());
            }
            update.execute();
        });
    }

    @Override
    public List<Trigger> due(long now, int limit) {
        return jdbi.withHandle(handle -> handle.createQuery("SELECT * FROM app_trigger WHERE next_fire_at <= :now "
                + "AND enabled = TRUE AND kind = 'schedule' ORDER BY next_fire_at LIMIT :limit").bind("now", now)
                .bind("limit", limit).map((rs, ctx) -> trigger(rs)).list());
    }

    @Override
    public boolean claim(String triggerId, long dueAt, long nextAt, Tick.Outcome outcome, long firedAt) {
        return jdbi.inTransaction(handle -> {
            int moved = handle.createUpdate("UPDATE app_trigger SET next_fire_at = :next WHERE id = :id AND "
                    + "next_fire_at = :due AND enabled = TRUE").bind("next", nextAt).bind("id", triggerId)
                    .bind("due", dueAt).execute();
            if (moved == 0) {
                return false;
            }
            // A tick fired before (a clock that went back brought the schedule to it again) is not fired twice:
            // the schedule moves on, and this claim takes nothing.
            int recorded = handle.createUpdate("INSERT INTO trigger_tick (trigger_id, due_at, outcome, fired_at) "
                    + "SELECT :id, :due, :outcome, :fired WHERE NOT EXISTS (SELECT 1 FROM trigger_tick WHERE "
                    + "trigger_id = :id AND due_at = :due)").bind("id", triggerId).bind("due", dueAt)
                    .bind("outcome", outcome.name()).bind("fired", firedAt).execute();
            if (recorded == 0) {
                return false;
            }
            handle.createUpdate("DELETE FROM trigger_tick WHERE trigger_id = :id AND due_at < (SELECT due_at FROM "
                    + "trigger_tick WHERE trigger_id = :id ORDER BY due_at DESC LIMIT 1 OFFSET :kept)")
                    .bind("id", triggerId).bind("kept", KEPT_TICKS - 1).execute();
            return true;
        });
    }

    @Override
    public void ranTick(String triggerId, long dueAt, String runId) {
        jdbi.useHandle(handle -> handle.createUpdate("UPDATE trigger_tick SET run_id = :run WHERE trigger_id = :id "
                + "AND due_at = :due").bind("run", runId).bind("id", triggerId).bind("due", dueAt).execute());
    }

    @Override
    public void refusedTick(String triggerId, long dueAt) {
        jdbi.useHandle(handle -> handle.createUpdate("UPDATE trigger_tick SET outcome = 'REFUSED' WHERE trigger_id = "
                + ":id AND due_at = :due").bind("id", triggerId).bind("due", dueAt).execute());
    }

    @Override
    public List<Tick> ticks(String triggerId, int limit) {
        return jdbi.withHandle(handle -> handle.createQuery("SELECT * FROM trigger_tick WHERE trigger_id = :id "
                + "ORDER BY due_at DESC LIMIT :limit").bind("id", triggerId).bind("limit", limit)
                .map((rs, ctx) -> new Tick(triggerId, rs.getLong("due_at"), rs.getLong("fired_at"),
                        Tick.Outcome.valueOf(rs.getString("outcome")), rs.getString("run_id"))).list());
    }

    private static Update bind(Update update, Trigger trigger) {
        ScheduleSpec schedule = trigger.schedule();
        WebhookAuth auth = trigger.auth();
        return update.bind("id", trigger.id()).bind("app_id", trigger.appId()).bind("node_id", trigger.nodeId())
                .bind("kind", trigger.kind().triggeredFrom()).bind("title", trigger.title())
                .bind("enabled", trigger.enabled()).bind("code", trigger.code())
                .bind("cron", schedule == null ? null : schedule.cron())
                .bind("timezone", schedule == null ? null : schedule.zone().getId())
                .bind("next_fire_at", trigger.nextFireAt()).bind("missed_ticks", trigger.missedTicks().wireName())
                .bind("auth_kind", auth.kind().wireName()).bind("auth_header", auth.headerName())
                .bind("auth_secret", auth.secret()).bind("created_at", trigger.createdAt());
    }

    private static Trigger trigger(ResultSet rs) throws SQLException {
        String cron = rs.getString("cron");
        ScheduleSpec schedule = cron == null ? null : new ScheduleSpec(cron, ZoneId.of(rs.getString("timezone")));
        long next = rs.getLong("next_fire_at");
        Long nextFireAt = rs.wasNull() ? null : next;
        WebhookAuth auth = new WebhookAuth(WebhookAuth.Kind.fromWireName(rs.getString("auth_kind")),
                rs.getString("auth_header"), rs.getString("auth_secret"));
        return new Trigger(rs.getString("id"), rs.getString("app_id"), rs.getString("node_id"),
                TriggerKind.fromTriggeredFrom(rs.getString("kind")), rs.getString("title"), rs.getBoolean("enabled"),
                rs.getString("code"), schedule, nextFireAt, MissedTicks.fromWireName(rs.getString("missed_ticks")),
                auth, rs.getLong("created_at"));
    }
}
