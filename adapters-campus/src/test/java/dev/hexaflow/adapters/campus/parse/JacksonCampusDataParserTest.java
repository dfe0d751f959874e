package dev.hexaflow.adapters.campus.parse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hexaflow.domain.campus.DataFileFormat;
import dev.hexaflow.domain.campus.CampusRecord;
import dev.hexaflow.domain.campus.FeedMethod;
import dev.hexaflow.domain.campus.Holiday;
import dev.hexaflow.domain.campus.InvalidCampusDataException;
import dev.hexaflow.domain.campus.Printer;
import dev.hexaflow.domain.campus.Tutor;
import dev.hexaflow.testing.SharedFolder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.List;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;

class JacksonCampusDataParserTest {

    private final JacksonCampusDataParser parser = new JacksonCampusDataParser();

    private List<CampusRecord> csv(FeedMethod dataSet, String text) {
        return parser.parse(dataSet, DataFileFormat.CSV, text.getBytes(StandardCharsets.UTF_8));
    }

    private List<CampusRecord> json(FeedMethod dataSet, String text) {
        return parser.parse(dataSet, DataFileFormat.JSON, text.getBytes(StandardCharsets.UTF_8));
    }

    private static void assertRefused(ThrowingCallable parse, int line, String field, String words) {
        assertThatThrownBy(parse)
                .isInstanceOfSatisfying(InvalidCampusDataException.class, e -> {
                    assertThat(e.line()).isEqualTo(line);
                    assertThat(e.field()).isEqualTo(field);
                })
                .hasMessageContaining(words);
    }

    @Test
    void csvWithQuotedCommasQuotesAndLineBreaksIsReadWholeAndEmptyFieldsAreNull() {
        List<CampusRecord> printers = csv(FeedMethod.PRINTERS, """
                printer,ad,server,comment,driver,room,faculty\r
                Eng_Civil,"CN=ENG;OU=Eng",ENG-SERVE,"It can ""duplex""!",PCL 5,E2 2340,Engineering\r
                p2,,,"two
                lines",,,
                """);

        assertThat(printers).containsExactly(
                new Printer("Eng_Civil", "CN=ENG;OU=Eng", "ENG-SERVE", "It can \"duplex\"!", "PCL 5", "E2 2340",
                        "Engineering"),
                new Printer("p2", null, null, "two\nlines", null, null, null));
    }

    @Test
    void csvColumnsMayComeInAnyOrderAndMissingOnesAreNull() {
        assertThat(csv(FeedMethod.TUTORS, "tutors_count,subject\n3,CS\n"))
                .containsExactly(new Tutor("CS", null, null, 3, null));
    }

    @Test
    void theUniversitysOwnHolidayFileLoadsWithItsHolidayColumnAndCurlyApostrophe() {
        Path file = SharedFolder.require("conformance/campus/holidays.csv");

        List<CampusRecord> holidays = parser.parse(FeedMethod.HOLIDAYS, DataFileFormat.CSV, readAll(file));

        assertThat(holidays).hasSize(205);
        assertThat(holidays.get(0)).isEqualTo(new Holiday("New Year's Day", LocalDate.of(2012, 1, 2)));
        assertThat(holidays).contains(new Holiday("New Year’s Day", LocalDate.of(2026, 1, 1)));
        assertThat(holidays.get(204)).isEqualTo(new Holiday("Civic Holiday", LocalDate.of(2026, 8, 3)));
    }

    @Test
    void aBadDateIsRefusedNamingItsLineAndField() {
        assertRefused(() -> csv(FeedMethod.HOLIDAYS, "date,holiday\n2012-01-02,A\n2012-02-30,B\n"),
                3, "date", "'2012-02-30' is not a date in Y-m-d form");
    }

    @Test
    void aRowWithTheWrongNumberOfFieldsIsRefusedNamingItsLine() {
        assertRefused(() -> csv(FeedMethod.HOLIDAYS, "name,date\nA,2012-01-02\nB\n"),
                3, null, "expected 2 fields");
    }

    @Test
    void anUnknownColumnIsRefusedNamingTheFieldsThereAre() {
        assertRefused(() -> csv(FeedMethod.TUTORS, "subject,term\nCS,1139\n"),
                1, "term", "subject, catalog_number, title, tutors_count, contact_url");
    }

    @Test
    void aNegativeOrNonNumericTutorCountIsRefused() {
        assertRefused(() -> csv(FeedMethod.TUTORS, "subject,tutors_count\nCS,many\n"), 2, "tutors_count",
                "not a whole number");
        assertRefused(() -> csv(FeedMethod.TUTORS, "subject,tutors_count\nCS,-2\n"), 2, "tutors_count",
                "negative");
    }

    @Test
    void anUnclosedQuoteIsRefusedAtTheLineItOpens() {
        assertRefused(() -> csv(FeedMethod.PRINTERS, "printer,comment\np1,ok\np2,\"never closed\n\n"),
                3, null, "never closed");
    }

    @Test
    void anEmptyFileIsRefused() {
        assertRefused(() -> csv(FeedMethod.PRINTERS, ""), 1, null, "header row");
    }

    @Test
    void aHeaderAloneIsAnEmptyDataSet() {
        assertThat(csv(FeedMethod.TUTORS, "subject,catalog_number\n")).isEmpty();
    }

    @Test
    void bytesThatAreNotUtf8AreRefused() {
        assertThatThrownBy(() -> parser.parse(FeedMethod.HOLIDAYS, DataFileFormat.CSV,
                new byte[] {'n', 'a', 'm', 'e', '\n', (byte) 0xC3, (byte) 0x28}))
                .isInstanceOf(InvalidCampusDataException.class)
                .hasMessageContaining("UTF-8");
    }

    @Test
    void jsonArraysOfRecordsAreRead() {
        List<CampusRecord> tutors = json(FeedMethod.TUTORS, """
                [{"subject": "CS", "catalog_number": "135", "title": null, "tutors_count": 9},
                 {"subject": "MATH", "contact_url": "https://example.edu"}]""");

        assertThat(tutors).containsExactly(new Tutor("CS", "135", null, 9, null),
                new Tutor("MATH", null, null, null, "https://example.edu"));
    }

    @Test
    void jsonErrorsNameTheLineAndField() {
        assertRefused(() -> json(FeedMethod.TUTORS, "[\n{\"subject\": \"CS\",\n \"tutors_count\": \"nine\"}]"),
                3, "tutors_count", "expected a whole number or null");
        assertRefused(() -> json(FeedMethod.HOLIDAYS, "[\n{\"name\": \"A\",\n \"date\": \"2012/01/02\"}]"),
                2, "date", "not a date");
        assertRefused(() -> json(FeedMethod.HOLIDAYS, "[{\"name\": 1}]"), 1, "name",
                "expected a string or null");
        assertRefused(() -> json(FeedMethod.HOLIDAYS, "[\n\n{\"when\": \"x\"}]"), 3, "when", "not a field");
    }

    @Test
    void jsonThatIsNotAnArrayOrNotJsonIsRefused() {
        assertRefused(() -> json(FeedMethod.HOLIDAYS, "{\"name\": \"A\"}"), 1, null, "expected a JSON array");
        assertRefused(() -> json(FeedMethod.HOLIDAYS, "[{\"name\": \"A\"},\n{oops}]"), 2, null, "not valid JSON");
        assertRefused(() -> json(FeedMethod.HOLIDAYS, "[1]"), 1, null, "expected a record object");
        assertRefused(() -> json(FeedMethod.HOLIDAYS, "[] []"), 1, null, "after the closing");
    }

    private static byte[] readAll(Path file) {
        try {
            return Files.readAllBytes(file);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
