package dev.hexaflow.domain.campus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.LocalDate;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class FeedModelTest {

    @Test
    void anErrorEnvelopeRefusesToCarryData() {
        FeedMeta meta = new FeedMeta(-1, 0, FeedStatus.KEY_REQUIRED, Optional.of(FeedMethod.TUTORS));
        assertThatThrownBy(() -> new FeedEnvelope(meta, List.of(new Holiday("x", LocalDate.EPOCH))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("no data");
    }

    @Test
    void metaKnowsTheMethodIdAndVersionOfItsMethod() {
        FeedMeta meta = new FeedMeta(3, 10, FeedStatus.OK, Optional.of(FeedMethod.HOLIDAYS));
        assertThat(meta.methodId()).contains(1423);
        assertThat(meta.version()).contains(2.07);
        FeedMeta unknown = new FeedMeta(-1, 10, FeedStatus.INVALID_METHOD, Optional.empty());
        assertThat(unknown.methodId()).isEmpty();
        assertThat(unknown.version()).isEmpty();
    }

    @Test
    void noDataTravelsAsHttp200BecauseHttp204HasNoBodyButEveryErrorMirrorsItsCode() {
        assertThat(FeedStatus.NO_DATA.httpStatus()).isEqualTo(200);
        assertThat(FeedStatus.KEY_REQUIRED.httpStatus()).isEqualTo(511);
        assertThat(FeedStatus.BANNED_KEY.httpStatus()).isEqualTo(403);
        assertThat(FeedStatus.INVALID_METHOD.message()).isEqualTo("Invalid method");
        assertThat(FeedStatus.KEY_REQUIRED.message()).isEqualTo("API key is required (?key=)");
    }

    @Test
    void aTutorCountCannotBeNegativeButMayBeNull() {
        assertThatThrownBy(() -> new Tutor("CS", "135", "t", -1, null)).hasMessageContaining("tutors_count");
        assertThat(new Tutor(null, null, null, null, null).tutorsCount()).isNull();
    }

    @Test
    void callbacksMustBeIdentifierPaths() {
        assertThat(JsonpCallback.isValid("myResponse")).isTrue();
        assertThat(JsonpCallback.isValid("jQuery123_456")).isTrue();
        assertThat(JsonpCallback.isValid("app.feeds.$on")).isTrue();
        assertThat(JsonpCallback.isValid("alert(1)")).isFalse();
        assertThat(JsonpCallback.isValid("a;b")).isFalse();
        assertThat(JsonpCallback.isValid("1abc")).isFalse();
        assertThat(JsonpCallback.isValid("a..b")).isFalse();
        assertThat(JsonpCallback.isValid("")).isFalse();
        assertThat(JsonpCallback.isValid("a".repeat(129))).isFalse();
        assertThatThrownBy(() -> new JsonpCallback("x=1")).hasMessageContaining("callback");
    }

    @Test
    void aDataErrorNamesItsLineAndField() {
        InvalidCampusDataException e = new InvalidCampusDataException(12, "date", "'x' is not a date");
        assertThat(e.getMessage()).isEqualTo("line 12, field date: 'x' is not a date");
        assertThat(new InvalidCampusDataException(0, null, "empty").getMessage()).isEqualTo("empty");
    }
}
