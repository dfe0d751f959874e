package dev.hexaflow.application.campus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hexaflow.adapters.persistence.memory.InMemoryCampusDataRepository;
import dev.hexaflow.application.campus.port.in.ImportCampusDataCommand;
import dev.hexaflow.application.campus.port.out.CampusDataParser;
import dev.hexaflow.application.campus.service.ImportCampusDataService;
import dev.hexaflow.domain.campus.CampusRecord;
import dev.hexaflow.domain.campus.DataFileFormat;
import dev.hexaflow.domain.campus.DataSetTooLargeException;
import dev.hexaflow.domain.campus.FeedMethod;
import dev.hexaflow.domain.campus.Holiday;
import dev.hexaflow.domain.campus.InvalidCampusDataException;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Importing campus data sets into the in-memory campus data. The parser is a fake reading one holiday per line,
 * {@code name,date}; a line {@code bad} is a fault at that line, and {@code many} stands for more records than a
 * data set may hold.
 */
class ImportCampusDataServiceTest {

    private final InMemoryCampusDataRepository data = new InMemoryCampusDataRepository();
    private final List<FeedMethod> parsed = new ArrayList<>();
    private final CampusDataParser parser = (dataSet, format, content) -> {
        parsed.add(dataSet);
        String text = new String(content, StandardCharsets.UTF_8);
        if (text.equals("many")) {
            return Collections.nCopies(DataSetTooLargeException.MAX_RECORDS + 1,
                    new Holiday("Day", LocalDate.of(2026, 1, 1)));
        }
        List<CampusRecord> records = new ArrayList<>();
        String[] lines = text.split("\n");
        for (int i = 0; i < lines.length; i++) {
            if (lines[i].equals("bad")) {
                throw new InvalidCampusDataException(i + 1, "date", "not a date");
            }
            String[] fields = lines[i].split(",");
            records.add(new Holiday(fields[0], LocalDate.parse(fields[1])));
        }
        return records;
    };
    private final ImportCampusDataService importer = new ImportCampusDataService(parser, data);

    private int importHolidays(String text, boolean onlyIfEmpty) {
        return importer.importData(new ImportCampusDataCommand(FeedMethod.HOLIDAYS, DataFileFormat.CSV,
                text.getBytes(StandardCharsets.UTF_8), onlyIfEmpty));
    }

    @Test
    void aFileReplacesTheWholeDataSetAndAnswersHowManyRecordsItHolds() {
        importHolidays("Old,2025-01-01", false);

        int imported = importHolidays("New Year,2026-01-01\nLabour Day,2026-05-01", false);

        assertThat(imported).isEqualTo(2);
        assertThat(data.findAll(FeedMethod.HOLIDAYS)).containsExactly(new Holiday("New Year", LocalDate.of(2026,
                1, 1)), new Holiday("Labour Day", LocalDate.of(2026, 5, 1)));
        assertThat(data.count(FeedMethod.TUTORS)).isZero();
    }

    @Test
    void aFirstStartLoadLeavesADataSetThatHasRecordsAloneWithoutParsing() {
        importHolidays("Kept,2026-01-01", false);
        parsed.clear();

        int answered = importHolidays("Other,2026-02-02", true);

        assertThat(answered).isEqualTo(-1);
        assertThat(parsed).isEmpty();
        assertThat(data.findAll(FeedMethod.HOLIDAYS)).extracting(h -> ((Holiday) h).name()).containsExactly("Kept");
    }

    @Test
    void aFirstStartLoadFillsAnEmptyDataSet() {
        assertThat(importHolidays("First,2026-03-03", true)).isEqualTo(1);
        assertThat(data.count(FeedMethod.HOLIDAYS)).isEqualTo(1);
    }

    @Test
    void aFileWithAFaultChangesNothingAndNamesTheLineAndField() {
        importHolidays("Kept,2026-01-01", false);

        assertThatThrownBy(() -> importHolidays("Fine,2026-01-02\nbad", false))
                .isInstanceOfSatisfying(InvalidCampusDataException.class, e -> {
                    assertThat(e.line()).isEqualTo(2);
                    assertThat(e.field()).isEqualTo("date");
                    assertThat(e.getMessage()).isEqualTo("line 2, field date: not a date");
                });
        assertThat(data.findAll(FeedMethod.HOLIDAYS)).extracting(h -> ((Holiday) h).name()).containsExactly("Kept");
    }

    @Test
    void aFileOverAMebibyteIsRefusedBeforeItIsParsed() {
        String huge = "x".repeat(DataSetTooLargeException.MAX_BYTES + 1);

        assertThatThrownBy(() -> importHolidays(huge, false)).isInstanceOf(DataSetTooLargeException.class)
                .hasMessage("the file is 1048577 bytes; a data set file may be at most 1048576 bytes (1 MiB)");
        assertThat(parsed).isEmpty();
    }

    @Test
    void aDataSetOverFiveThousandRecordsIsRefusedUnkept() {
        assertThatThrownBy(() -> importHolidays("many", false)).isInstanceOf(DataSetTooLargeException.class)
                .hasMessage("the file has 5001 records; a data set may hold at most 5000 records");
        assertThat(data.count(FeedMethod.HOLIDAYS)).isZero();
    }
}
