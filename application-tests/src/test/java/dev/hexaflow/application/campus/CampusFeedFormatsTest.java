package dev.hexaflow.application.campus;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hexaflow.adapters.campus.render.JacksonBiweeklyFeedRenderer;
import dev.hexaflow.adapters.persistence.memory.InMemoryCampusDataRepository;
import dev.hexaflow.adapters.persistence.memory.InMemoryCampusKeyRepository;
import dev.hexaflow.application.MovableClock;
import dev.hexaflow.application.campus.port.in.CampusFeedAnswer;
import dev.hexaflow.application.campus.port.in.CampusFeedQuery;
import dev.hexaflow.application.campus.port.out.CampusFeedMonitor;
import dev.hexaflow.application.campus.service.CampusFeedService;
import dev.hexaflow.application.campus.service.IssueCampusKeyService;
import dev.hexaflow.domain.campus.FeedMeta;
import dev.hexaflow.domain.campus.FeedMethod;
import dev.hexaflow.domain.campus.FeedStatus;
import dev.hexaflow.domain.campus.Holiday;
import dev.hexaflow.domain.campus.Printer;
import dev.hexaflow.domain.campus.Tutor;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The campus feed through the shipped renderer (JSON, JSONP, XML, iCalendar), on the in-memory keys and data, with
 * a monitor that writes down what it hears: the bodies a client reads, and what metrics are told.
 */
class CampusFeedFormatsTest {

    private final InMemoryCampusKeyRepository keys = new InMemoryCampusKeyRepository();
    private final InMemoryCampusDataRepository data = new InMemoryCampusDataRepository();
    private final MovableClock clock = new MovableClock(Instant.parse("2026-03-01T10:00:00Z"));
    private final AtomicInteger drawn = new AtomicInteger();
    private final IssueCampusKeyService issue = new IssueCampusKeyService(keys,
            length -> ("k" + drawn.incrementAndGet() + "x".repeat(length)).substring(0, length));
    private final List<FeedMeta> heard = new ArrayList<>();
    private final CampusFeedService feed = new CampusFeedService(keys, data, new JacksonBiweeklyFeedRenderer(), clock,
            heard::add);

    CampusFeedFormatsTest() {
        data.replaceAll(FeedMethod.TUTORS, List.of(new Tutor("MATH", "101", "Calculus", 2, "https://t")));
        data.replaceAll(FeedMethod.PRINTERS, List.of(new Printer("P1", "ad", "srv", null, "drv", "A-101", "CS")));
        data.replaceAll(FeedMethod.HOLIDAYS, List.of(new Holiday("New Year", LocalDate.of(2026, 1, 1)),
                new Holiday("Labour Day", LocalDate.of(2026, 5, 1))));
    }

    private CampusFeedAnswer ask(String service, String resource, String extension, String key, String callback) {
        return feed.serve(new CampusFeedQuery(service, resource, extension, key, callback));
    }

    private static String body(CampusFeedAnswer answer) {
        return new String(answer.body(), StandardCharsets.UTF_8);
    }

    @Test
    void holidaysAsIcsAreACalendarWithOneEventPerHoliday() {
        CampusFeedAnswer ics = ask("events", "holidays", "ics", null, null);

        assertThat(ics.contentType()).startsWith("text/calendar");
        assertThat(body(ics)).startsWith("BEGIN:VCALENDAR").contains("SUMMARY:New Year", "SUMMARY:Labour Day");
        assertThat(body(ics).split("BEGIN:VEVENT", -1)).hasSize(3);
    }

    @Test
    void tutorsAsJsonCarryTheMethodIdButNoVersionWhileHolidaysCarryTheirs() {
        String key = issue.issue();

        String tutors = body(ask("resources", "tutors", "json", key, null));
        String holidays = body(ask("events", "holidays", "json", null, null));

        assertThat(tutors).startsWith("{\"meta\":{\"requests\":1,").contains("\"method_id\":1481")
                .doesNotContain("\"version\"").contains("\"subject\":\"MATH\"");
        assertThat(holidays).contains("\"requests\":-1", "\"method_id\":1423", "\"version\":2.07");
    }

    @Test
    void printersAsXmlAreAResponseHoldingMetaAndTheRecordsNulls() {
        String key = issue.issue();

        CampusFeedAnswer xml = ask("resources", "printers", "xml", key, null);

        assertThat(xml.contentType()).startsWith("application/xml");
        assertThat(body(xml)).startsWith("<?xml").contains("<response>", "<meta>", "P1", "A-101")
                .endsWith("</response>");
    }

    @Test
    void aCallbackWrapsTheJsonAsJavascriptAndAnEmptyCallbackIsNone() {
        CampusFeedAnswer wrapped = ask("events", "holidays", "json", null, "uw.feeds.take");
        CampusFeedAnswer plain = ask("events", "holidays", "json", null, "");

        assertThat(wrapped.contentType()).startsWith("application/javascript");
        assertThat(body(wrapped)).startsWith("uw.feeds.take({\"meta\":").endsWith("});");
        assertThat(plain.envelope().meta().status()).isEqualTo(FeedStatus.OK);
        assertThat(plain.contentType()).startsWith("application/json");
    }

    /** Only JSON is wrapped in a callback, so only JSON refuses one that is no identifier. */
    @Test
    void aCalendarAskedWithACallbackThatIsNoIdentifierIsStillServed() {
        CampusFeedAnswer ics = ask("events", "holidays", "ics", null, "alert(1)");

        assertThat(ics.envelope().meta().status()).isEqualTo(FeedStatus.OK);
        assertThat(body(ics)).startsWith("BEGIN:VCALENDAR").doesNotContain("alert");
    }

    @Test
    void aRefusalInJsonNamesItsStatusAndHoldsNoRecords() {
        CampusFeedAnswer refused = ask("resources", "tutors", "json", "never-issued", null);

        assertThat(refused.httpStatus()).isEqualTo(401);
        assertThat(body(refused)).contains("\"requests\":0", "\"status\":401").doesNotContain("MATH");
    }

    @Test
    void anEmptyPrintersSetIs204AndDoesNotCountWhileAnEmptyHolidaysSetDoes() {
        String key = issue.issue();
        data.replaceAll(FeedMethod.PRINTERS, List.of());
        data.replaceAll(FeedMethod.HOLIDAYS, List.of());

        CampusFeedAnswer printers = ask("resources", "printers", "json", key, null);
        CampusFeedAnswer holidays = ask("events", "holidays", "json", key, null);

        assertThat(printers.envelope().meta().status()).isEqualTo(FeedStatus.NO_DATA);
        assertThat(printers.envelope().meta().requests()).isZero();
        assertThat(holidays.envelope().meta().requests()).isEqualTo(1);
        assertThat(body(printers)).contains("\"data\":[]");
    }

    @Test
    void oneKeysUsageCountsItsCallsOfEveryMethodTogether() {
        String key = issue.issue();

        ask("resources", "tutors", "json", key, null);
        ask("resoruces", "printers", "xml", key, null);
        CampusFeedAnswer third = ask("events", "holidays", "ics", key, null);

        assertThat(third.envelope().meta().requests()).isEqualTo(3);
    }

    @Test
    void theMonitorHearsEachAnswersMethodAndStatusRefusalsAndOutagesIncluded() {
        ask("events", "holidays", "json", null, null);
        ask("resources", "tutors", "json", null, null);
        ask("resources", "canteens", "json", null, null);
        feed.unavailable();

        assertThat(heard).extracting(FeedMeta::status).containsExactly(FeedStatus.OK, FeedStatus.KEY_REQUIRED,
                FeedStatus.INVALID_METHOD, FeedStatus.UNAVAILABLE);
        assertThat(heard).extracting(FeedMeta::method).containsExactly(Optional.of(FeedMethod.HOLIDAYS),
                Optional.of(FeedMethod.TUTORS), Optional.empty(), Optional.empty());
    }

    @Test
    void aMonitorThatFailsCostsTheClientNothing() {
        CampusFeedMonitor broken = meta -> {
            throw new IllegalStateException("the metrics registry is closed");
        };
        CampusFeedService watched = new CampusFeedService(keys, data, new JacksonBiweeklyFeedRenderer(), clock,
                broken);

        CampusFeedAnswer answer = watched.serve(new CampusFeedQuery("events", "holidays", "json", null, null));

        assertThat(answer.envelope().meta().status()).isEqualTo(FeedStatus.OK);
        assertThat(body(answer)).contains("New Year");
        assertThat(watched.unavailable().httpStatus()).isEqualTo(503);
    }
}
