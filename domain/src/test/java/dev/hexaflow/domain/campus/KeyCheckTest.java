package dev.hexaflow.domain.campus;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hexaflow.domain.secret.SecretHash;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class KeyCheckTest {

    private static final CampusKey KEY = new CampusKey(SecretHash.of("k"), 41, false);

    @Test
    void aMethodThatNeedsAKeyRefusesACallWithoutOneWith511AndNoUsage() {
        assertThat(KeyCheck.of(FeedMethod.TUTORS, false, Optional.empty()))
                .isEqualTo(new KeyCheck.Refused(FeedStatus.KEY_REQUIRED, -1));
    }

    @Test
    void holidaysWithoutAKeyAreServedAnonymously() {
        assertThat(KeyCheck.of(FeedMethod.HOLIDAYS, false, Optional.empty())).isEqualTo(new KeyCheck.Anonymous());
    }

    @Test
    void anUnknownKeyIsRefusedWith401EvenWhereNoKeyIsNeeded() {
        assertThat(KeyCheck.of(FeedMethod.HOLIDAYS, true, Optional.empty()))
                .isEqualTo(new KeyCheck.Refused(FeedStatus.INVALID_KEY, 0));
    }

    @Test
    void aBannedKeyIsRefusedWith403AndShowsItsUsage() {
        assertThat(KeyCheck.of(FeedMethod.PRINTERS, true, Optional.of(KEY.ban())))
                .isEqualTo(new KeyCheck.Refused(FeedStatus.BANNED_KEY, 41));
    }

    @Test
    void aGoodKeyIsGranted() {
        assertThat(KeyCheck.of(FeedMethod.TUTORS, true, Optional.of(KEY))).isEqualTo(new KeyCheck.Granted(KEY));
    }
}
