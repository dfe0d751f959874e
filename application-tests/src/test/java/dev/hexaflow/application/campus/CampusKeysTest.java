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
import dev.hexaflow.domain.campus.FeedMethod;
import dev.hexaflow.domain.campus.FeedStatus;
import dev.hexaflow.domain.campus.Holiday;
import dev.hexaflow.domain.campus.Printer;
import dev.hexaflow.domain.campus.Tutor;
import dev.hexaflow.domain.secret.SecretHash;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * A campus key's life, issued, used, banned, on the in-memory key and data repositories; and what the feed hands
 * its renderer (the format asked for, the JSONP callback), seen through a lambda renderer that writes them.
 */
class CampusKeysTest {

    private final InMemoryCampusKeyRepository keys = new InMemoryCampusKeyRepository();
    private final InMemoryCampusDataRepository data = new InMemoryCampusDataRepository();
    private final MovableClock clock = new MovableClock(Instant.parse("2026-03-01T10:00:00Z"));
    /** The lengths of the secrets asked for. */
    private final List<Integer> asked = new ArrayList<>();
    private final AtomicInteger drawn = new AtomicInteger();
    private final IssueCampusKeyService issue = new IssueCampusKeyService(keys, length -> {
        asked.add(length);
        return ("K" + drawn.incrementAndGet() + "y".repeat(length)).substring(0, length);
    });
    private final BanCampusKeyService ban = new BanCampusKeyService(keys);
    private final FeedRenderer renderer = (envelope, format, callback) -> new FeedRenderer.RenderedFeed(
            format.name(), (format.name() + " " + callback.map(c -> c.name()).orElse("-") + " "
                    + envelope.meta().timestamp()).getBytes(StandardCharsets.UTF_8));
    private final CampusFeedService feed = new CampusFeedService(keys, data, renderer, clock);

    CampusKeysTest() {
        data.replaceAll(FeedMethod.TUTORS, List.of(new Tutor("MATH", "101", "Calculus", 2, "https://t")));
        data.replaceAll(FeedMethod.PRINTERS, List.of(new Printer("P1", "ad", "srv", "", "drv", "A-101", "CS")));
        data.replaceAll(FeedMethod.HOLIDAYS, List.of(new Holiday("New Year", LocalDate.of(2026, 1, 1))));
    }

    private CampusFeedAnswer ask(String service, String resource, String extension, String key, String callback) {
        return feed.serve(new CampusFeedQuery(service, resource, extension, key, callback));
    }

    private CampusFeedAnswer tutors(String key) {
        return ask("resources", "tutors", "json", key, null);
    }

    private static String body(CampusFeedAnswer answer) {
        return new String(answer.body(), StandardCharsets.UTF_8);
    }

    @Test
    void anIssuedKeyIsThirtyTwoCharactersAndOnlyItsHashIsKeptWithNoUseYet() {
        String key = issue.issue();

        assertThat(asked).containsExactly(32);
        assertThat(key).hasSize(32);
        assertThat(keys.find(SecretHash.of(key))).hasValueSatisfying(kept -> {
            assertThat(kept.requests()).isZero();
            assertThat(kept.banned()).isFalse();
        });
    }

    @Test
    void eachIssueIsANewKeyThatTheFeedGrantsOnItsOwnCount() {
        String first = issue.issue();
        String second = issue.issue();

        tutors(first);
        tutors(first);
        CampusFeedAnswer byFirst = tutors(first);
        CampusFeedAnswer bySecond = tutors(second);

        assertThat(first).isNotEqualTo(second);
        assertThat(byFirst.envelope().meta().requests()).isEqualTo(3);
        assertThat(bySecond.envelope().meta().requests()).isEqualTo(1);
    }

    @Test
    void aBannedKeyIsRefusedWithTheUseItHadWhileAnotherKeyStillServes() {
        String banned = issue.issue();
        String other = issue.issue();
        tutors(banned);
        tutors(banned);

        ban.ban(banned);

        CampusFeedAnswer refused = tutors(banned);
        assertThat(refused.envelope().meta().status()).isEqualTo(FeedStatus.BANNED_KEY);
        assertThat(refused.httpStatus()).isEqualTo(403);
        assertThat(refused.envelope().meta().requests()).isEqualTo(2);
        assertThat(tutors(banned).envelope().meta().requests()).as("a refused call is not counted").isEqualTo(2);
        assertThat(tutors(other).envelope().meta().status()).isEqualTo(FeedStatus.OK);
    }

    @Test
    void aBannedKeyIsRefusedEvenWhereNoKeyIsNeeded() {
        String key = issue.issue();
        ban.ban(key);

        assertThat(ask("events", "holidays", "ics", key, null).envelope().meta().status())
                .isEqualTo(FeedStatus.BANNED_KEY);
        assertThat(ask("events", "holidays", "ics", null, null).envelope().meta().status())
                .isEqualTo(FeedStatus.OK);
    }

    @Test
    void banningAKeyTwiceStaysBannedAndAKeyIsBannedOnlyByItsExactText() {
        String key = issue.issue();

        ban.ban(key);
        ban.ban(key);

        assertThatThrownBy(() -> ban.ban(key.toLowerCase())).isInstanceOf(UnknownCampusKeyException.class);
        assertThatThrownBy(() -> ban.ban(null)).isInstanceOf(UnknownCampusKeyException.class);
        assertThat(keys.find(SecretHash.of(key)).orElseThrow().banned()).isTrue();
    }

    @Test
    void aValidCallbackIsHandedToTheRendererWithTheFormatAskedFor() {
        String key = issue.issue();

        assertThat(body(ask("resources", "printers", "json", key, "campus.feeds.take")))
                .startsWith("JSON campus.feeds.take ");
        assertThat(body(ask("resources", "printers", "xml", key, null))).startsWith("XML - ");
        assertThat(body(ask("events", "holidays", "ics", null, "$cb"))).startsWith("ICS $cb ");
    }

    @Test
    void anErrorAskedForAsAnICalendarGoesOutAsJsonButOneAskedForAsXmlStaysXml() {
        CampusFeedAnswer asIcs = ask("events", "holidays", "ics", "never-issued", null);
        CampusFeedAnswer asXml = ask("resources", "tutors", "xml", null, null);

        assertThat(asIcs.contentType()).isEqualTo("JSON");
        assertThat(asXml.envelope().meta().status()).isEqualTo(FeedStatus.KEY_REQUIRED);
        assertThat(asXml.httpStatus()).isEqualTo(511);
        assertThat(asXml.contentType()).isEqualTo("XML");
    }

    @Test
    void everyAnswerIsStampedWithTheTimeItWasServed() {
        String key = issue.issue();
        CampusFeedAnswer before = tutors(key);

        clock.advance(Duration.ofMinutes(10));
        CampusFeedAnswer after = tutors(key);
        CampusFeedAnswer refused = tutors("never-issued");

        assertThat(after.envelope().meta().timestamp() - before.envelope().meta().timestamp()).isEqualTo(600);
        assertThat(refused.envelope().meta().timestamp()).isEqualTo(clock.instant().getEpochSecond());
    }
}
