package dev.hexaflow.adapters.campus.render;

import biweekly.Biweekly;
import biweekly.ICalendar;
import biweekly.component.VEvent;
import biweekly.property.DateEnd;
import biweekly.property.DateStart;
import biweekly.util.DateTimeComponents;
import biweekly.util.ICalDate;
import dev.hexaflow.domain.campus.CampusRecord;
import dev.hexaflow.domain.campus.Holiday;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.Date;
import java.util.List;
import java.util.Locale;

/**
 * Writes holidays as an RFC 5545 calendar: one all-day event per holiday, with a UID made of the date and the
 * name, so that a calendar that subscribes sees the same event on every fetch. A holiday without a date has no
 * place on a calendar and is left out.
 */
final class BiweeklyHolidayCalendarWriter {

    static final String UID_DOMAIN = "holidays.campus.hexaflow";

    byte[] calendar(List<? extends CampusRecord> records) {
        ICalendar calendar = new ICalendar();
        calendar.setProductId("-//Hexaflow//Campus holidays//EN");
        calendar.setName("University holidays");
        // RFC 7986's NAME is newer than most calendar apps; they read the older X-WR-CALNAME.
        calendar.setExperimentalProperty("X-WR-CALNAME", "University holidays");
        for (CampusRecord record : records) {
            if (record instanceof Holiday holiday && holiday.date() != null) {
                calendar.addEvent(event(holiday));
            }
        }
        return Biweekly.write(calendar).go().getBytes(StandardCharsets.UTF_8);
    }

    private static VEvent event(Holiday holiday) {
        VEvent event = new VEvent();
        event.setUid(uid(holiday));
        event.setSummary(holiday.name());
        event.setDateStart(new DateStart(allDay(holiday.date())));
        event.setDateEnd(new DateEnd(allDay(holiday.date().plusDays(1))));
        event.setTransparency(true);
        return event;
    }

    static String uid(Holiday holiday) {
        String name = holiday.name() == null ? "holiday" : holiday.name();
        String slug = name.toLowerCase(Locale.ROOT).replaceAll("[^\\p{L}\\p{Nd}]+", "-").replaceAll("^-|-$", "");
        return holiday.date() + "-" + (slug.isEmpty() ? "holiday" : slug) + "@" + UID_DOMAIN;
    }

    private static ICalDate allDay(LocalDate date) {
        // The raw components carry the calendar date itself, so no time zone can move it to the day before.
        Date instant = Date.from(date.atStartOfDay().toInstant(ZoneOffset.UTC));
        return new ICalDate(instant,
                new DateTimeComponents(date.getYear(), date.getMonthValue(), date.getDayOfMonth()), false);
    }
}
