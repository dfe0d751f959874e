package dev.hexaflow.application.triggers.port.out;

import dev.hexaflow.domain.trigger.ScheduleSpec;
import java.time.Instant;

/** Reads cron expressions as Dify's croniter does, in a schedule's time zone. */
public interface CronCalendar {

    /**
     * The first time after {@code after} the schedule fires.
     *
     * @throws IllegalArgumentException naming what is wrong with an expression that is not cron
     */
    Instant next(ScheduleSpec schedule, Instant after);
}
