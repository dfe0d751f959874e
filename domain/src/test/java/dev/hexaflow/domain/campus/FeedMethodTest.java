package dev.hexaflow.domain.campus;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class FeedMethodTest {

    @Test
    void printersAnswerOnTheSpellingOfTheSpecAndOnTheOneRealClientsCall() {
        assertThat(FeedMethod.at("resoruces", "printers")).contains(FeedMethod.PRINTERS);
        assertThat(FeedMethod.at("resources", "printers")).contains(FeedMethod.PRINTERS);
    }

    @Test
    void theMisspelledServiceNamesNoOtherMethod() {
        assertThat(FeedMethod.at("resoruces", "tutors")).isEmpty();
        assertThat(FeedMethod.at("resources", "holidays")).isEmpty();
        assertThat(FeedMethod.at("events", "tutors")).isEmpty();
    }

    @Test
    void eachMethodCarriesTheIdOfTheRealApi() {
        assertThat(FeedMethod.at("resources", "tutors").orElseThrow().id()).isEqualTo(1481);
        assertThat(FeedMethod.PRINTERS.id()).isEqualTo(1123);
        assertThat(FeedMethod.at("events", "holidays").orElseThrow().id()).isEqualTo(1423);
    }

    @Test
    void onlyPrintersAndHolidaysCarryAVersion() {
        assertThat(FeedMethod.TUTORS.version()).isEmpty();
        assertThat(FeedMethod.PRINTERS.version()).contains(2.07);
        assertThat(FeedMethod.HOLIDAYS.version()).contains(2.07);
    }

    @Test
    void onlyHolidaysOfferIcsAndOnlyHolidaysNeedNoKey() {
        assertThat(FeedMethod.HOLIDAYS.offers(OutputFormat.ICS)).isTrue();
        assertThat(FeedMethod.TUTORS.offers(OutputFormat.ICS)).isFalse();
        assertThat(FeedMethod.PRINTERS.offers(OutputFormat.ICS)).isFalse();
        assertThat(FeedMethod.HOLIDAYS.keyRequired()).isFalse();
        assertThat(FeedMethod.TUTORS.keyRequired()).isTrue();
        assertThat(FeedMethod.PRINTERS.keyRequired()).isTrue();
    }

    @Test
    void anEmptyResultCountsAsUsageForHolidaysButNotForTutorsOrPrinters() {
        assertThat(FeedMethod.TUTORS.countsUsage(0)).isFalse();
        assertThat(FeedMethod.PRINTERS.countsUsage(0)).isFalse();
        assertThat(FeedMethod.HOLIDAYS.countsUsage(0)).isTrue();
        assertThat(FeedMethod.TUTORS.countsUsage(3)).isTrue();
    }

    @Test
    void dataSetsAreFoundByTheirResourceName() {
        assertThat(FeedMethod.ofDataSet("holidays")).contains(FeedMethod.HOLIDAYS);
        assertThat(FeedMethod.ofDataSet("Holidays")).isEmpty();
        assertThat(FeedMethod.ofDataSet("courses")).isEmpty();
    }
}
