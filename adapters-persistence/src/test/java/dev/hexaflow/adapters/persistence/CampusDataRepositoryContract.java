package dev.hexaflow.adapters.persistence;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hexaflow.application.campus.port.out.CampusDataRepository;
import dev.hexaflow.domain.campus.CampusRecord;
import dev.hexaflow.domain.campus.FeedMethod;
import dev.hexaflow.domain.campus.Holiday;
import dev.hexaflow.domain.campus.Printer;
import dev.hexaflow.domain.campus.Tutor;
import java.time.LocalDate;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What every {@link CampusDataRepository} promises; each adapter runs it by extending this class. */
abstract class CampusDataRepositoryContract {

    protected abstract CampusDataRepository repository();

    static final List<Tutor> TUTORS = List.of(
            new Tutor("CS", "135", "Designing Functional Programs", 9, "https://example.edu/cs135"),
            new Tutor("MATH", "135", null, null, null));
    static final List<Printer> PRINTERS = List.of(
            new Printer("p1", "CN=p1;DC=example", "SRV", "It can duplex!", "PCL 6", "E2 2340", "Engineering"),
            new Printer("p2", null, null, null, null, null, null));
    static final List<Holiday> HOLIDAYS = List.of(
            new Holiday("New Year’s Day", LocalDate.of(2026, 1, 1)),
            new Holiday("Additional Day", LocalDate.of(2012, 12, 24)),
            new Holiday(null, null));

    @Test
    void anEmptyStoreHasNoRecords() {
        for (FeedMethod dataSet : FeedMethod.values()) {
            assertThat(repository().findAll(dataSet)).isEmpty();
            assertThat(repository().count(dataSet)).isZero();
        }
    }

    @Test
    void everyDataSetComesBackAsGivenInTheGivenOrderWithItsNulls() {
        repository().replaceAll(FeedMethod.TUTORS, TUTORS);
        repository().replaceAll(FeedMethod.PRINTERS, PRINTERS);
        repository().replaceAll(FeedMethod.HOLIDAYS, HOLIDAYS);

        assertThat(repository().findAll(FeedMethod.TUTORS)).containsExactlyElementsOf(TUTORS);
        assertThat(repository().findAll(FeedMethod.PRINTERS)).containsExactlyElementsOf(PRINTERS);
        assertThat(repository().findAll(FeedMethod.HOLIDAYS)).containsExactlyElementsOf(HOLIDAYS);
        assertThat(repository().count(FeedMethod.HOLIDAYS)).isEqualTo(3);
    }

    @Test
    void replacingADataSetDropsTheOldRecordsAndLeavesTheOthersAlone() {
        repository().replaceAll(FeedMethod.TUTORS, TUTORS);
        repository().replaceAll(FeedMethod.HOLIDAYS, HOLIDAYS);
        List<CampusRecord> fewer = List.of(new Tutor("STAT", "230", "Probability", 6, null));

        repository().replaceAll(FeedMethod.TUTORS, fewer);

        assertThat(repository().findAll(FeedMethod.TUTORS)).containsExactlyElementsOf(fewer);
        assertThat(repository().findAll(FeedMethod.HOLIDAYS)).containsExactlyElementsOf(HOLIDAYS);
    }

    @Test
    void replacingWithNothingEmptiesTheDataSet() {
        repository().replaceAll(FeedMethod.PRINTERS, PRINTERS);

        repository().replaceAll(FeedMethod.PRINTERS, List.of());

        assertThat(repository().findAll(FeedMethod.PRINTERS)).isEmpty();
    }
}
