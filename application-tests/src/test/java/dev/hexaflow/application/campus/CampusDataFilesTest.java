package dev.hexaflow.application.campus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hexaflow.adapters.campus.parse.JacksonCampusDataParser;
import dev.hexaflow.adapters.persistence.memory.InMemoryCampusDataRepository;
import dev.hexaflow.application.campus.port.in.ImportCampusDataCommand;
import dev.hexaflow.application.campus.service.ImportCampusDataService;
import dev.hexaflow.domain.campus.DataFileFormat;
import dev.hexaflow.domain.campus.FeedMethod;
import dev.hexaflow.domain.campus.Holiday;
import dev.hexaflow.domain.campus.InvalidCampusDataException;
import dev.hexaflow.domain.campus.Printer;
import dev.hexaflow.domain.campus.Tutor;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Campus data files as an operator sends them, read by the shipped CSV and JSON parser into the in-memory campus
 * data: what each data set takes, and how a fault is named (line and field) without changing what is served.
 */
class CampusDataFilesTest {

    private final InMemoryCampusDataRepository data = new InMemoryCampusDataRepository();
    private final ImportCampusDataService importer = new ImportCampusDataService(new JacksonCampusDataParser(), data);

    private int send(FeedMethod dataSet, DataFileFormat format, String text) {
        return send(dataSet, format, text.getBytes(StandardCharsets.UTF_8));
    }

    private int send(FeedMethod dataSet, DataFileFormat format, byte[] content) {
        return importer.importData(new ImportCampusDataCommand(dataSet, format, content, false));
    }

    private static void assertFault(Runnable call, int line, String field, String message) {
        assertThatThrownBy(call::run).isInstanceOfSatisfying(InvalidCampusDataException.class, e -> {
            assertThat(e.line()).isEqualTo(line);
            assertThat(e.field()).isEqualTo(field);
            assertThat(e.getMessage()).isEqualTo(message);
        });
    }

    @Test
    void aTutorsCsvIsReadByItsHeaderWhateverTheColumnOrderAndAnEmptyCellIsNull() {
        int imported = send(FeedMethod.TUTORS, DataFileFormat.CSV, """
                title,subject,catalog_number,tutors_count,contact_url
                Calculus,MATH,101,2,https://t
                Mechanics,PHYS,201,,https://p
                """);

        assertThat(imported).isEqualTo(2);
        assertThat(data.findAll(FeedMethod.TUTORS)).containsExactly(
                new Tutor("MATH", "101", "Calculus", 2, "https://t"),
                new Tutor("PHYS", "201", "Mechanics", null, "https://p"));
    }

    @Test
    void aPrintersJsonArrayKeepsItsNullsAndLeavesTheOtherDataSetsAlone() {
        send(FeedMethod.HOLIDAYS, DataFileFormat.CSV, "name,date\nNew Year,2026-01-01\n");

        int imported = send(FeedMethod.PRINTERS, DataFileFormat.JSON, """
                [{"printer": "P1", "ad": "ad", "server": "srv", "comment": null, "driver": "drv",
                  "room": "A-101", "faculty": "CS"}]
                """);

        assertThat(imported).isEqualTo(1);
        assertThat(data.findAll(FeedMethod.PRINTERS))
                .containsExactly(new Printer("P1", "ad", "srv", null, "drv", "A-101", "CS"));
        assertThat(data.count(FeedMethod.HOLIDAYS)).isEqualTo(1);
    }

    /** The university's own holidays file names its first column "holiday". */
    @Test
    void aHolidaysColumnNamedHolidayIsTheNameAndBlankLinesAreSkipped() {
        int imported = send(FeedMethod.HOLIDAYS, DataFileFormat.CSV,
                "holiday,date\nNew Year,2026-01-01\n\nLabour Day,2026-05-01\n");

        assertThat(imported).isEqualTo(2);
        assertThat(data.findAll(FeedMethod.HOLIDAYS)).containsExactly(
                new Holiday("New Year", LocalDate.of(2026, 1, 1)), new Holiday("Labour Day", LocalDate.of(2026, 5, 1)));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "a date not in Y-m-d form|name,date\\nFine,2026-01-01\\nBad,01.05.2026|3|date"
                + "|line 3, field date: '01.05.2026' is not a date in Y-m-d form",
        "a day that does not exist|name,date\\nLeap,2026-02-29|2|date"
                + "|line 2, field date: '2026-02-29' is not a date in Y-m-d form",
        "a column the data set lacks|name,day\\nNew Year,2026-01-01|1|day"
                + "|line 1, field day: not a field of holidays; the fields are name, date",
        "a column given twice|name,holiday\\nA,B|1|holiday|line 1, field holiday: the column appears twice",
        "a row short of the header|name,date\\nNew Year|2|| line 2: expected 2 fields as in the header, found 1"})
    void aFaultyHolidaysCsvIsRefusedNamingItsLineAndFieldAndTheServedDataStays(String fault, String csv, int line,
            String field, String message) {
        send(FeedMethod.HOLIDAYS, DataFileFormat.CSV, "name,date\nKept,2025-12-25\n");

        assertFault(() -> send(FeedMethod.HOLIDAYS, DataFileFormat.CSV, csv.replace("\\n", "\n")), line, field,
                message.strip());
        assertThat(data.findAll(FeedMethod.HOLIDAYS)).containsExactly(new Holiday("Kept", LocalDate.of(2025, 12,
                25)));
    }

    @Test
    void aTutorsCountThatIsNegativeOrNoWholeNumberIsRefusedNamingTheCountField() {
        String header = "subject,catalog_number,title,tutors_count,contact_url\n";

        assertFault(() -> send(FeedMethod.TUTORS, DataFileFormat.CSV, header + "MATH,101,Calculus,-1,https://t"), 2,
                "tutors_count", "line 2, field tutors_count: '-1' is negative");
        assertFault(() -> send(FeedMethod.TUTORS, DataFileFormat.CSV, header + "MATH,101,Calculus,two,https://t"),
                2, "tutors_count", "line 2, field tutors_count: 'two' is not a whole number");
        assertThat(data.count(FeedMethod.TUTORS)).isZero();
    }

    @Test
    void aValueLongerThanItsFieldHoldsIsRefusedWithBothLengths() {
        assertFault(() -> send(FeedMethod.HOLIDAYS, DataFileFormat.CSV, "name,date\n" + "n".repeat(501)
                + ",2026-01-01"), 2, "name", "line 2, field name: the value is 501 characters long; at most 500 fit");
    }

    @Test
    void anEmptyFileOrOneThatIsNotUtf8IsRefusedAsAWhole() {
        assertFault(() -> send(FeedMethod.HOLIDAYS, DataFileFormat.CSV, ""), 1, null,
                "line 1: the file is empty; a header row of field names is needed");
        assertFault(() -> send(FeedMethod.HOLIDAYS, DataFileFormat.CSV, new byte[] {'n', (byte) 0xC3, '(', '\n'}),
                0, null, "the file is not UTF-8 text");
    }

    @Test
    void aJsonFileThatIsNoArrayOrHasAForeignFieldIsRefusedAndNothingChanges() {
        send(FeedMethod.HOLIDAYS, DataFileFormat.JSON, "[{\"name\": \"Kept\", \"date\": \"2025-12-25\"}]");

        assertThatThrownBy(() -> send(FeedMethod.HOLIDAYS, DataFileFormat.JSON, "{\"name\": \"x\"}"))
                .isInstanceOf(InvalidCampusDataException.class).hasMessageContaining("expected a JSON array");
        assertThatThrownBy(() -> send(FeedMethod.HOLIDAYS, DataFileFormat.JSON,
                "[{\"name\": \"A\", \"date\": \"2026-01-01\"},\n {\"name\": \"B\", \"colour\": \"red\"}]"))
                .isInstanceOfSatisfying(InvalidCampusDataException.class, e -> {
                    assertThat(e.line()).isEqualTo(2);
                    assertThat(e.field()).isEqualTo("colour");
                });
        assertThat(data.findAll(FeedMethod.HOLIDAYS)).extracting(h -> ((Holiday) h).name()).containsExactly("Kept");
    }

    @Test
    void aFileWithAHeaderAndNoRowsEmptiesTheDataSet() {
        send(FeedMethod.HOLIDAYS, DataFileFormat.CSV, "name,date\nOld,2025-01-01\n");

        int imported = send(FeedMethod.HOLIDAYS, DataFileFormat.CSV, "name,date\n");

        assertThat(imported).isZero();
        assertThat(data.count(FeedMethod.HOLIDAYS)).isZero();
    }
}
