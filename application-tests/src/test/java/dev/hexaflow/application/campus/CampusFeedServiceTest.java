package dev.hexaflow.application.campus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hexaflow.adapters.persistence.memory.InMemoryCampusDataRepository;
import dev.hexaflow.adapters.persistence.memory.InMemoryCampusKeyRepository;
import dev.hexaflow.application.MovableClock;
import dev.hexaflow.application.campus.port.in.BanCampusKeyUseCase.UnknownCampusKeyException;
import dev.hexaflow.application.campus.port.in.CampusFeedAnswer;
import dev.hexaflow.application.campus.port.in.CampusFeedQuery;
import dev.hexaflow.application.campus.port.out.FeedRenderer;
import dev.hexaflow.application.campus.service.BanCampusKeyService;
import dev.hexaflow.application.campus.service.CampusFeedService;
import dev.hexaflow.application.campus.service.IssueCampusKeyService;
import dev.hexaflow.domain.campus.FeedMeta;
import dev.hexaflow.domain.campus.FeedMethod;
import dev.hexaflow.domain.campus.FeedStatus;
import dev.hexaflow.domain.campus.Holiday;
import dev.hexaflow.domain.campus.OutputFormat;
import dev.hexaflow.domain.campus.Printer;
import dev.hexaflow.domain.campus.Tutor;
import dev.hexaflow.domain.secret.SecretHash;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The campus feed on the in-memory key and data repositories: which check answers first when several fail, what a
 * key's usage counts, and which format carries an error. The renderer is a lambda that writes the format, the
 * status and the callback, so that what the service asked of it shows.
 */
class CampusFeedServiceTest {

    private final InMemoryCampusKeyRepository keys = new InMemoryCampusKeyRepository();
    private final InMemoryCampusDataRepository data = new InMemoryCampusDataRepository();
    private final MovableClock clock = new MovableClock(Instant.parse("2026-03-01T10:00:00Z"));
    private final AtomicInteger drawn = new AtomicInteger();
    private final IssueCampusKeyService issue = new IssueCampusKeyService(keys,
            length -> ("k" + drawn.incrementAndGet() + "x".repeat(length)).substring(0, length));
    private final BanCampusKeyService ban = new BanCampusKeyService(keys);
    private final FeedRenderer renderer = (envelope, format, callback) -> new FeedRenderer.RenderedFeed(
            format.name(), (envelope.meta().status().code() + callback.map(c -> " " + c.name()).orElse(""))
                    .getBytes(StandardCharsets.UTF_8));
    private final CampusFeedService feed = new CampusFeedService(keys, data, renderer, clock);

    private CampusFeedAnswer ask(String service, String resource, String extension, String key, String callback) {
        return feed.serve(new CampusFeedQuery(service, resource, extension, key, callback));
    }

    private static String body(CampusFeedAnswer answer) {
        return new String(answer.body(), StandardCharsets.UTF_8);
    }

    @Test
    void anUnknownMethodOrAFormatTheMethodLacksIs501BeforeTheKeyOrCallbackIsLookedAt() {
        CampusFeedAnswer unknown = ask("resources", "canteens", "json", "not-a-key", "1bad");
        CampusFeedAnswer noIcs = ask("resources", "tutors", "ics", null, null);
        CampusFeedAnswer noFormat = ask("events", "holidays", "csv", "not-a-key", null);

        assertThat(List.of(unknown, noIcs, noFormat)).allSatisfy(answer -> {
            assertThat(answer.envelope().meta().status()).isEqualTo(FeedStatus.INVALID_METHOD);
            assertThat(answer.envelope().meta().requests()).isEqualTo(FeedMeta.NO_KEY);
            assertThat(answer.httpStatus()).isEqualTo(501);
        });
        // An error cannot be an iCalendar: it goes out as JSON; the known method is still named.
        assertThat(noIcs.contentType()).isEqualTo("JSON");
        assertThat(noIcs.envelope().meta().method()).contains(FeedMethod.TUTORS);
        assertThat(unknown.envelope().meta().method()).isEmpty();
    }

    @Test
    void aJsonCallbackThatIsNoIdentifierIs400BeforeTheKeyButXmlIgnoresIt() {
        CampusFeedAnswer json = ask("resources", "tutors", "json", "not-a-key", "alert(1)");
        CampusFeedAnswer xml = ask("resources", "tutors", "xml", "not-a-key", "alert(1)");

        assertThat(json.envelope().meta().status()).isEqualTo(FeedStatus.INVALID_CALLBACK);
        // The refusal is not wrapped in the callback it refused.
        assertThat(body(json)).isEqualTo("400");
        assertThat(xml.envelope().meta().status()).isEqualTo(FeedStatus.INVALID_KEY);
        assertThat(xml.contentType()).isEqualTo("XML");
    }

    @Test
    void theKeyIsCheckedInOrderMissingThenUnknownThenBanned() {
        String key = issue.issue();
        data.replaceAll(FeedMethod.TUTORS, List.of(new Tutor("MATH", "101", "Calculus", 2, "https://t")));
        ask("resources", "tutors", "json", key, null);
        ban.ban(key);

        CampusFeedAnswer missing = ask("resources", "tutors", "json", "  ", null);
        CampusFeedAnswer unknown = ask("resources", "tutors", "json", "never-issued", null);
        CampusFeedAnswer banned = ask("resources", "tutors", "json", key, "cb");

        assertThat(missing.envelope().meta().status()).isEqualTo(FeedStatus.KEY_REQUIRED);
        assertThat(missing.httpStatus()).isEqualTo(511);
        assertThat(unknown.envelope().meta().status()).isEqualTo(FeedStatus.INVALID_KEY);
        assertThat(unknown.envelope().meta().requests()).isEqualTo(FeedMeta.UNKNOWN_KEY);
        assertThat(banned.envelope().meta().status()).isEqualTo(FeedStatus.BANNED_KEY);
        assertThat(banned.envelope().meta().requests()).isEqualTo(1);
        assertThat(body(banned)).isEqualTo("403 cb");
        assertThat(banned.envelope().data()).isEmpty();
    }

    @Test
    void aGrantedKeyCountsEachCallThatAnsweredRecordsAndAnEmptyTutorsSetIs204Uncounted() {
        String key = issue.issue();
        data.replaceAll(FeedMethod.TUTORS, List.of(new Tutor("MATH", "101", "Calculus", 2, "https://t"),
                new Tutor("PHYS", "201", "Mechanics", null, "https://p")));

        CampusFeedAnswer first = ask("resources", "tutors", "json", key, "feed.take");
        CampusFeedAnswer second = ask("resources", "tutors", "xml", key, null);
        data.replaceAll(FeedMethod.TUTORS, List.of());
        CampusFeedAnswer empty = ask("resources", "tutors", "json", key, null);

        assertThat(first.envelope().meta().status()).isEqualTo(FeedStatus.OK);
        assertThat(first.envelope().data()).hasSize(2);
        assertThat(first.envelope().meta().requests()).isEqualTo(1);
        assertThat(first.envelope().meta().timestamp()).isEqualTo(clock.instant().getEpochSecond());
        assertThat(body(first)).isEqualTo("200 feed.take");
        assertThat(second.envelope().meta().requests()).isEqualTo(2);
        assertThat(empty.envelope().meta().status()).isEqualTo(FeedStatus.NO_DATA);
        assertThat(empty.httpStatus()).isEqualTo(200);
        assertThat(empty.envelope().meta().requests()).isEqualTo(2);
        assertThat(keys.find(SecretHash.of(key)).orElseThrow().requests()).isEqualTo(2);
    }

    @Test
    void holidaysNeedNoKeyYetAGivenKeyMustBeKnownAndAnEmptyAnswerStillCounts() {
        String key = issue.issue();
        data.replaceAll(FeedMethod.HOLIDAYS, List.of(new Holiday("New Year", LocalDate.of(2026, 1, 1))));

        CampusFeedAnswer anonymous = ask("events", "holidays", "ics", null, null);
        CampusFeedAnswer unknownKey = ask("events", "holidays", "ics", "never-issued", null);
        data.replaceAll(FeedMethod.HOLIDAYS, List.of());
        CampusFeedAnswer emptyWithKey = ask("events", "holidays", "json", key, null);

        assertThat(anonymous.envelope().meta().status()).isEqualTo(FeedStatus.OK);
        assertThat(anonymous.envelope().meta().requests()).isEqualTo(FeedMeta.NO_KEY);
        assertThat(anonymous.contentType()).isEqualTo(OutputFormat.ICS.name());
        assertThat(unknownKey.envelope().meta().status()).isEqualTo(FeedStatus.INVALID_KEY);
        assertThat(unknownKey.contentType()).isEqualTo("JSON");
        assertThat(emptyWithKey.envelope().meta().status()).isEqualTo(FeedStatus.NO_DATA);
        assertThat(emptyWithKey.envelope().meta().requests()).isEqualTo(1);
    }

    @Test
    void printersAnswerOnTheMisspelledPathToo() {
        String key = issue.issue();
        data.replaceAll(FeedMethod.PRINTERS, List.of(new Printer("P1", "ad", "srv", "", "drv", "A-101", "CS")));

        CampusFeedAnswer misspelled = ask("resoruces", "printers", "json", key, null);

        assertThat(misspelled.envelope().meta().method()).contains(FeedMethod.PRINTERS);
        assertThat(misspelled.envelope().data()).hasSize(1);
        assertThat(ask("events", "printers", "json", key, null).envelope().meta().status())
                .isEqualTo(FeedStatus.INVALID_METHOD);
    }

    @Test
    void aKeyNeverIssuedCannotBeBannedAndAnUnavailableFeedIs503() {
        assertThatThrownBy(() -> ban.ban("never-issued")).isInstanceOf(UnknownCampusKeyException.class);
        assertThatThrownBy(() -> ban.ban(" ")).isInstanceOf(UnknownCampusKeyException.class);

        CampusFeedAnswer down = feed.unavailable();

        assertThat(down.httpStatus()).isEqualTo(503);
        assertThat(down.contentType()).isEqualTo("JSON");
    }
}
