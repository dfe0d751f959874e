package dev.hexaflow.app;

import static dev.hexaflow.app.TestServer.json;
import static org.assertj.core.api.Assertions.assertThat;

import biweekly.Biweekly;
import biweekly.ICalendar;
import biweekly.component.VEvent;
import com.fasterxml.jackson.databind.JsonNode;
import dev.hexaflow.testing.SharedFolder;
import java.io.ByteArrayInputStream;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/** Every path, format and code of /v2 on a real server over a real H2, read-only against the bundled data. */
class CampusFeedHttpTest {

    @TempDir
    static Path dataDir;
    static TestServer server;
    static String key;

    @BeforeAll
    static void start() {
        server = TestServer.start(dataDir);
        key = server.issueCampusKey();
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    @Test
    void holidaysWithoutAKeyAreServedWithTheRealDataAndNoUsage() {
        HttpResponse<String> response = server.get("/v2/events/holidays.json");

        assertThat(response.statusCode()).isEqualTo(200);
        JsonNode body = json(response);
        assertThat(fieldNames(body)).containsExactly("meta", "data");
        JsonNode meta = body.get("meta");
        assertThat(fieldNames(meta))
                .containsExactly("requests", "timestamp", "status", "message", "method_id", "version", "method");
        assertThat(meta.get("requests").asLong()).isEqualTo(-1);
        assertThat(meta.get("status").asInt()).isEqualTo(200);
        assertThat(meta.get("message").asText()).isEqualTo("Request successful");
        assertThat(meta.get("method_id").asInt()).isEqualTo(1423);
        assertThat(meta.get("version").asDouble()).isEqualTo(2.07);
        assertThat(meta.get("timestamp").asLong())
                .isBetween(System.currentTimeMillis() / 1000 - 60, System.currentTimeMillis() / 1000 + 60);
        assertThat(body.get("data")).hasSize(205);
        assertThat(body.get("data").get(0).get("name").asText()).isEqualTo("New Year's Day");
        assertThat(body.get("data").get(0).get("date").asText()).isEqualTo("2012-01-02");
        assertThat(holidayNames(body)).contains("New Year’s Day");
    }

    @Test
    void theEnvelopeHasTheKeyOrderOfTheRealApisDocumentedSample() {
        Path sample = SharedFolder.require("conformance/campus/sample-holidays.json");

        JsonNode real = json(read(sample));
        JsonNode ours = json(server.get("/v2/events/holidays.json"));

        assertThat(fieldNames(ours)).isEqualTo(fieldNames(real));
        assertThat(fieldNames(ours.get("meta"))).isEqualTo(fieldNames(real.get("meta")));
        assertThat(fieldNames(ours.get("data").get(0))).isEqualTo(fieldNames(real.get("data").get(0)));
        assertThat(ours.get("meta").get("method_id")).isEqualTo(real.get("meta").get("method_id"));
        assertThat(ours.get("meta").get("version")).isEqualTo(real.get("meta").get("version"));
    }

    @Test
    void everyFeedAnswerAllowsAnyOriginAndIsNotCached() {
        HttpResponse<String> response = server.get("/v2/events/holidays.json");

        assertThat(response.headers().firstValue("Access-Control-Allow-Origin")).contains("*");
        assertThat(response.headers().firstValue("Cache-Control")).contains("no-cache");
        assertThat(response.headers().firstValue("Content-Type").orElseThrow().replace(" ", ""))
                .isEqualToIgnoringCase("application/json;charset=utf-8");
    }

    @Test
    void holidaysWithAValidKeyCountAsItsUsage() {
        String own = server.issueCampusKey();

        long first = json(server.get("/v2/events/holidays.json?key=" + own)).get("meta").get("requests").asLong();
        long second = json(server.get("/v2/events/holidays.json?key=" + own)).get("meta").get("requests").asLong();

        assertThat(first).isEqualTo(1);
        assertThat(second).isEqualTo(2);
    }

    @Test
    void tutorsWithAKeyHaveNoVersionAndEveryField() {
        HttpResponse<String> response = server.get("/v2/resources/tutors.json?key=" + key);

        assertThat(response.statusCode()).isEqualTo(200);
        JsonNode body = json(response);
        assertThat(fieldNames(body.get("meta")))
                .containsExactly("requests", "timestamp", "status", "message", "method_id", "method");
        assertThat(body.get("meta").get("method_id").asInt()).isEqualTo(1481);
        assertThat(body.get("data").size()).isGreaterThanOrEqualTo(12);
        assertThat(fieldNames(body.get("data").get(0)))
                .containsExactly("subject", "catalog_number", "title", "tutors_count", "contact_url");
    }

    @ParameterizedTest
    @CsvSource({"/v2/resources/tutors.json, 1481", "/v2/resoruces/printers.json, 1123",
            "/v2/resources/printers.json, 1123", "/v2/resources/tutors.xml, 1481",
            "/v2/resoruces/printers.xml, 1123"})
    void tutorsAndPrintersWithoutAKeyAre511WithAnEmptyDataList(String path, int methodId) {
        HttpResponse<String> response = server.get(path);

        assertThat(response.statusCode()).isEqualTo(511);
        if (path.endsWith(".json")) {
            JsonNode meta = json(response).get("meta");
            assertThat(meta.get("status").asInt()).isEqualTo(511);
            assertThat(meta.get("message").asText()).isEqualTo("API key is required (?key=)");
            assertThat(meta.get("requests").asLong()).isEqualTo(-1);
            assertThat(meta.get("method_id").asInt()).isEqualTo(methodId);
            assertThat(json(response).get("data").isArray()).isTrue();
            assertThat(json(response).get("data")).isEmpty();
        } else {
            Element root = xml(response.body());
            assertThat(text(child(root, "meta"), "status")).isEqualTo("511");
            assertThat(text(child(root, "meta"), "method_id")).isEqualTo(String.valueOf(methodId));
            assertThat(child(root, "data").getElementsByTagName("item").getLength()).isZero();
        }
    }

    @Test
    void printersAnswerTheSameOnBothSpellings() {
        JsonNode misspelled = json(server.get("/v2/resoruces/printers.json?key=" + key));
        JsonNode correct = json(server.get("/v2/resources/printers.json?key=" + key));

        assertThat(misspelled.get("data")).isEqualTo(correct.get("data"));
        assertThat(correct.get("data").size()).isGreaterThanOrEqualTo(12);
        assertThat(correct.get("meta").get("version").asDouble()).isEqualTo(2.07);
        assertThat(fieldNames(correct.get("data").get(0)))
                .containsExactly("printer", "ad", "server", "comment", "driver", "room", "faculty");
    }

    @Test
    void anUnknownKeyIs401AndCountsNothing() {
        HttpResponse<String> response = server.get("/v2/events/holidays.json?key=not-a-real-key");

        assertThat(response.statusCode()).isEqualTo(401);
        JsonNode body = json(response);
        assertThat(body.get("meta").get("message").asText()).isEqualTo("Invalid API key");
        assertThat(body.get("meta").get("requests").asLong()).isZero();
        assertThat(body.get("data")).isEmpty();
    }

    @Test
    void xmlParsesBackToTheSameTutorsAsJson() {
        JsonNode json = json(server.get("/v2/resources/tutors.json?key=" + key)).get("data");
        HttpResponse<String> response = server.get("/v2/resources/tutors.xml?key=" + key);

        assertThat(response.headers().firstValue("Content-Type").orElseThrow()).startsWith("application/xml");
        NodeList items = child(xml(response.body()), "data").getElementsByTagName("item");
        assertThat(items.getLength()).isEqualTo(json.size());
        for (int i = 0; i < items.getLength(); i++) {
            Element item = (Element) items.item(i);
            for (String field : fieldNames(json.get(i))) {
                JsonNode value = json.get(i).get(field);
                assertThat(text(item, field)).isEqualTo(value.isNull() ? "" : value.asText());
            }
        }
    }

    @Test
    void holidaysIcsParsesBackWithBiweeklyToTheSameHolidaysAsJson() {
        JsonNode json = json(server.get("/v2/events/holidays.json")).get("data");
        HttpResponse<byte[]> response = server.getBytes("/v2/events/holidays.ics");

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("Content-Type").orElseThrow()).startsWith("text/calendar");
        ICalendar calendar = Biweekly.parse(new String(response.body(), StandardCharsets.UTF_8)).first();
        List<String> fromIcs = new ArrayList<>();
        for (VEvent event : calendar.getEvents()) {
            assertThat(event.getDateStart().getValue().hasTime()).isFalse();
            LocalDate date = LocalDate.ofInstant(event.getDateStart().getValue().toInstant(), ZoneId.systemDefault());
            fromIcs.add(date + " " + event.getSummary().getValue());
        }
        List<String> fromJson = new ArrayList<>();
        json.forEach(h -> fromJson.add(h.get("date").asText() + " " + h.get("name").asText()));
        assertThat(fromIcs).isEqualTo(fromJson);
    }

    @ParameterizedTest
    @CsvSource({"/v2/resources/tutors.ics, 1481", "/v2/resoruces/printers.ics, 1123",
            "/v2/events/holidays.csv, 1423", "/v2/events/holidays, 1423"})
    void aFormatTheMethodDoesNotOfferIsAnInvalidMethod(String path, int methodId) {
        HttpResponse<String> response = server.get(path + "?key=" + key);

        assertThat(response.statusCode()).isEqualTo(501);
        JsonNode meta = json(response).get("meta");
        assertThat(meta.get("status").asInt()).isEqualTo(501);
        assertThat(meta.get("message").asText()).isEqualTo("Invalid method");
        assertThat(meta.get("method_id").asInt()).isEqualTo(methodId);
    }

    @ParameterizedTest
    @CsvSource({"GET, /v2/foo/bar.json", "GET, /v2/resoruces/tutors.json", "GET, /v2/resources",
            "GET, /v2/a/b/c.json", "GET, /v2/", "POST, /v2/events/holidays.json",
            "DELETE, /v2/resources/tutors.json"})
    void anythingElseUnderV2IsAnInvalidMethodInTheEnvelope(String method, String path) {
        HttpResponse<String> response = server.send(method, path, null, null, null);

        assertThat(response.statusCode()).isEqualTo(501);
        JsonNode body = json(response);
        assertThat(body.get("meta").get("status").asInt()).isEqualTo(501);
        assertThat(body.get("meta").get("message").asText()).isEqualTo("Invalid method");
        assertThat(body.get("data")).isEmpty();
    }

    @Test
    void unknownQueryParametersAreIgnored() {
        HttpResponse<String> response = server.get("/v2/resources/tutors.json?output=json&term=1139&key=" + key);

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(json(response).get("meta").get("status").asInt()).isEqualTo(200);
    }

    @Test
    void aCallbackWrapsTheJsonAsJavascript() {
        HttpResponse<String> response = server.get("/v2/events/holidays.json?callback=uw.feeds.onHolidays");

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("Content-Type").orElseThrow()).startsWith("application/javascript");
        String body = response.body();
        assertThat(body).startsWith("uw.feeds.onHolidays(").endsWith(");");
        JsonNode inner = json(body.substring("uw.feeds.onHolidays(".length(), body.length() - 2));
        assertThat(inner.get("data")).hasSize(205);
    }

    @Test
    void anErrorIsWrappedInTheCallbackToo() {
        HttpResponse<String> response = server.get("/v2/resources/tutors.json?callback=myResponse");

        assertThat(response.statusCode()).isEqualTo(511);
        assertThat(response.body()).startsWith("myResponse({\"meta\":");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {"alert(1)", "a;b", "x%3Dy", "1abc", "a..b", "%3Cscript%3E"})
    void aCallbackThatIsNotAnIdentifierPathIsRefusedAndNeverEchoed(String callback) {
        HttpResponse<String> response = server.get("/v2/events/holidays.json?callback=" + callback);

        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(response.headers().firstValue("Content-Type").orElseThrow()).startsWith("application/json");
        JsonNode meta = json(response).get("meta");
        assertThat(meta.get("status").asInt()).isEqualTo(400);
        assertThat(meta.get("message").asText()).contains("callback");
    }

    @Test
    void xmlIgnoresTheCallback() {
        HttpResponse<String> response = server.get("/v2/events/holidays.xml?callback=alert(1)");

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(xml(response.body()).getTagName()).isEqualTo("response");
    }

    @Test
    void healthAnswersWithoutAKey() {
        HttpResponse<String> response = server.get("/health");

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).isEqualTo("{\"status\":\"ok\"}");
    }

    @Test
    void anUnknownPathOutsideTheFeedIsA404InTheJsonErrorShape() {
        HttpResponse<String> response = server.get("/nothing/here");

        assertThat(response.statusCode()).isEqualTo(404);
        JsonNode body = json(response);
        assertThat(body.get("code").asText()).isEqualTo("not_found");
        assertThat(body.get("status").asInt()).isEqualTo(404);
        assertThat(body.get("message").asText()).isNotBlank();
    }

    private static List<String> holidayNames(JsonNode body) {
        List<String> names = new ArrayList<>();
        body.get("data").forEach(h -> names.add(h.get("name").asText()));
        return names;
    }

    static List<String> fieldNames(JsonNode node) {
        List<String> names = new ArrayList<>();
        node.fieldNames().forEachRemaining(names::add);
        return names;
    }

    static Element xml(String body) {
        try {
            Document document = DocumentBuilderFactory.newInstance().newDocumentBuilder()
                    .parse(new ByteArrayInputStream(body.getBytes(StandardCharsets.UTF_8)));
            return document.getDocumentElement();
        } catch (Exception e) {
            throw new AssertionError("not well-formed XML: " + body, e);
        }
    }

    static Element child(Element parent, String name) {
        NodeList children = parent.getChildNodes();
        for (int i = 0; i < children.getLength(); i++) {
            if (children.item(i) instanceof Element e && e.getTagName().equals(name)) {
                return e;
            }
        }
        throw new AssertionError("no <" + name + "> in <" + parent.getTagName() + ">");
    }

    static String text(Element parent, String name) {
        return child(parent, name).getTextContent();
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
