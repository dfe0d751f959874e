package dev.hexaflow.adapters.http.serviceapi;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The Authorization header read by hand gives what the regular expression it replaced gave. */
class BearerHeaderTest {

    @Test
    void schemeAndTokenAreWhatSplittingOnRunsOfWhitespaceGave() {
        for (String header : List.of("Bearer app-abc", "bearer  app-abc", "Bearer\t \napp-abc", "Bearer \u000Bapp-abc",
                "Bearer \f\rapp abc def", "Basic dXNlcjpwYXNz", "Bearer\u2003x y", "Bearer\u00a0x y", "x y",
                "Bearer app-abc\t trailing")) {
            String stripped = header.strip();
            assertThat(ServiceApiAuthentication.schemeAndCredentials(stripped)).as(header)
                    .containsExactly(stripped.split("\\s+", 2));
        }
    }
}
