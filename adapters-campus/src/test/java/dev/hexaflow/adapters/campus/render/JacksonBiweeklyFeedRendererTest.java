package dev.hexaflow.adapters.campus.render;

import static org.assertj.core.api.Assertions.assertThat;

import biweekly.Biweekly;
import biweekly.ICalendar;
import biweekly.component.VEvent;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.hexaflow.application.campus.port.out.FeedRenderer.RenderedFeed;
import dev.hexaflow.domain.campus.CampusRecord;
import dev.hexaflow.domain.campus.FeedEnvelope;
import dev.hexaflow.domain.campus.FeedMeta;
import dev.hexaflow.domain.campus.FeedMethod;
import dev.hexaflow.domain.campus.FeedStatus;
import dev.hexaflow.domain.campus.Holiday;
import dev.hexaflow.domain.campus.JsonpCallback;
import dev.hexaflow.domain.campus.OutputFormat;
import dev.hexaflow.domain.campus.Printer;
import dev.hexaflow.domain.campus.Tutor;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import java.util.TimeZone;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

class JacksonBiweeklyFeedRendererTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private final JacksonBiweeklyFeedRenderer renderer = new JacksonBiweeklyFeedRenderer();

    private static FeedEnvelope envelope(FeedMethod method, List<? extends CampusRecord> data) {
        FeedStatus status = data.isEmpty() ? FeedStatus.NO_DATA : FeedStatus.OK;
        return new FeedEnvelope(new FeedMeta(7, 1_700_000_000L, status, Optional.of(method)), data);
    }

    private static final List<Holiday> HOLIDAYS = List.of(
            new Holiday("New Year’s Day", LocalDate.of(2026, 1, 1)),
            new Holiday("Additional Day", LocalDate.of(2025, 12, 24)),
            new Holiday("Additional Day", LocalDate.of(2025, 12, 31)));

    @Test
    void jsonCarriesMetaInTheRealOrderThenData() throws Exception {
        RenderedFeed json = renderer.render(envelope(FeedMethod.HOLIDAYS, HOLIDAYS), OutputFormat.JSON,
                Optional.empty());

        assertThat(json.contentType()).isEqualTo("application/json; charset=utf-8");
        JsonNode body = JSON.readTree(json.body());
        assertThat(fieldNames(body)).containsExactly("meta", "data");
        assertThat(fieldNames(body.get("meta")))
                .containsExactly("requests", "timestamp", "status", "message", "method_id", "version", "method");
        assertThat(body.get("meta").get("version").isNumber()).isTrue();
        assertThat(body.get("meta").get("version").asDouble()).isEqualTo(2.07);
        assertThat(body.get("meta").get("method").isObject()).isTrue();
        assertThat(body.get("meta").get("method").size()).isZero();
        assertThat(body.get("data").get(0).get("name").asText()).isEqualTo("New Year’s Day");
        assertThat(body.get("data").get(0).get("date").asText()).isEqualTo("2026-01-01");
    }

    @Test
    void jsonEscapesNonAsciiAsTheLiveFeedDid() {
        RenderedFeed json = renderer.render(envelope(FeedMethod.HOLIDAYS, HOLIDAYS), OutputFormat.JSON,
                Optional.empty());

        assertThat(new String(json.body(), StandardCharsets.UTF_8)).contains("New Year\\u2019s Day");
    }

    @Test
    void tutorsHaveNoVersionAndKeepNullsAndNumbers() throws Exception {
        List<Tutor> tutors = List.of(new Tutor("CS", "135", "Designing Functional Programs", 9, null));

        JsonNode body = JSON.readTree(renderer.render(envelope(FeedMethod.TUTORS, tutors), OutputFormat.JSON,
                Optional.empty()).body());

        assertThat(fieldNames(body.get("meta")))
                .containsExactly("requests", "timestamp", "status", "message", "method_id", "method");
        JsonNode tutor = body.get("data").get(0);
        assertThat(fieldNames(tutor))
                .containsExactly("subject", "catalog_number", "title", "tutors_count", "contact_url");
        assertThat(tutor.get("tutors_count").isInt()).isTrue();
        assertThat(tutor.get("contact_url").isNull()).isTrue();
    }

    @Test
    void jsonpWrapsTheJsonInTheCallback() throws Exception {
        RenderedFeed jsonp = renderer.render(envelope(FeedMethod.HOLIDAYS, HOLIDAYS), OutputFormat.JSON,
                Optional.of(new JsonpCallback("myResponse")));

        String body = new String(jsonp.body(), StandardCharsets.UTF_8);
        assertThat(jsonp.contentType()).isEqualTo("application/javascript; charset=utf-8");
        assertThat(body).startsWith("myResponse(").endsWith(");");
        String inner = body.substring("myResponse(".length(), body.length() - 2);
        assertThat(JSON.readTree(inner).get("meta").get("method_id").asInt()).isEqualTo(1423);
    }

    @Test
    void xmlIsWellFormedWithOneElementPerRecordAndParsesBackToTheSameValues() throws Exception {
        List<Printer> printers = List.of(
                new Printer("p<1>", "CN=x;DC=y", "SRV", "Tom & Jerry's", "PCL", "E2 2340", "Engineering"),
                new Printer("p2", null, null, null, null, null, null));

        RenderedFeed xml = renderer.render(envelope(FeedMethod.PRINTERS, printers), OutputFormat.XML,
                Optional.of(new JsonpCallback("ignored")));

        assertThat(xml.contentType()).isEqualTo("application/xml; charset=utf-8");
        Document document = DocumentBuilderFactory.newInstance().newDocumentBuilder()
                .parse(new ByteArrayInputStream(xml.body()));
        Element root = document.getDocumentElement();
        assertThat(root.getTagName()).isEqualTo("response");
        Element meta = child(root, "meta");
        assertThat(childNames(meta))
                .containsExactly("requests", "timestamp", "status", "message", "method_id", "version", "method");
        assertThat(child(meta, "method_id").getTextContent()).isEqualTo("1123");
        assertThat(child(meta, "version").getTextContent()).isEqualTo("2.07");
        NodeList items = child(root, "data").getElementsByTagName("item");
        assertThat(items.getLength()).isEqualTo(2);
        Element first = (Element) items.item(0);
        assertThat(childNames(first)).containsExactly("printer", "ad", "server", "comment", "driver", "room",
                "faculty");
        assertThat(child(first, "printer").getTextContent()).isEqualTo("p<1>");
        assertThat(child(first, "comment").getTextContent()).isEqualTo("Tom & Jerry's");
        assertThat(child((Element) items.item(1), "faculty").getTextContent()).isEmpty();
    }

    @Test
    void icsHasOneAllDayEventPerHolidayThatBiweeklyReadsBackToTheSameHolidays() {
        RenderedFeed ics = renderer.render(envelope(FeedMethod.HOLIDAYS, HOLIDAYS), OutputFormat.ICS,
                Optional.empty());

        assertThat(ics.contentType()).isEqualTo("text/calendar; charset=utf-8");
        ICalendar calendar = Biweekly.parse(new String(ics.body(), StandardCharsets.UTF_8)).first();
        List<Holiday> back = new ArrayList<>();
        for (VEvent event : calendar.getEvents()) {
            assertThat(event.getDateStart().getValue().hasTime()).isFalse();
            back.add(new Holiday(event.getSummary().getValue(), LocalDate.ofInstant(
                    event.getDateStart().getValue().toInstant(), ZoneId.of(TimeZone.getDefault().getID()))));
        }
        assertThat(back).containsExactlyElementsOf(HOLIDAYS);
    }

    @Test
    void icsUidsAreStableAndDistinct() {
        String first = new String(renderer.render(envelope(FeedMethod.HOLIDAYS, HOLIDAYS), OutputFormat.ICS,
                Optional.empty()).body(), StandardCharsets.UTF_8);
        ICalendar once = Biweekly.parse(first).first();
        ICalendar twice = Biweekly.parse(new String(renderer.render(envelope(FeedMethod.HOLIDAYS, HOLIDAYS),
                OutputFormat.ICS, Optional.empty()).body(), StandardCharsets.UTF_8)).first();

        List<String> uids = once.getEvents().stream().map(e -> e.getUid().getValue()).toList();
        assertThat(uids).doesNotHaveDuplicates();
        assertThat(twice.getEvents().stream().map(e -> e.getUid().getValue()).toList()).isEqualTo(uids);
        assertThat(uids.get(0)).isEqualTo("2026-01-01-new-year-s-day@" + BiweeklyHolidayCalendarWriter.UID_DOMAIN);
    }

    private static List<String> fieldNames(JsonNode node) {
        List<String> names = new ArrayList<>();
        Iterator<String> it = node.fieldNames();
        it.forEachRemaining(names::add);
        return names;
    }

    private static Element child(Element parent, String name) {
        NodeList children = parent.getChildNodes();
        for (int i = 0; i < children.getLength(); i++) {
            if (children.item(i) instanceof Element e && e.getTagName().equals(name)) {
                return e;
            }
        }
        throw new AssertionError("no <" + name + "> in <" + parent.getTagName() + ">");
    }

    private static List<String> childNames(Element parent) {
        List<String> names = new ArrayList<>();
        NodeList children = parent.getChildNodes();
        for (int i = 0; i < children.getLength(); i++) {
            if (children.item(i) instanceof Element e) {
                names.add(e.getTagName());
            }
        }
        return names;
    }
}
