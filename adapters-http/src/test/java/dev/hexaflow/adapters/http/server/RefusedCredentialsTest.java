package dev.hexaflow.adapters.http.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hexaflow.adapters.http.server.RefusedCredentials.Credential;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** A scanner cannot flood the log: one line a window per address and API, and no more memory than a bound. */
class RefusedCredentialsTest {

    private final AtomicLong nanos = new AtomicLong(1);
    private final RefusedCredentials refusals = new RefusedCredentials(nanos::get, Duration.ofMinutes(1));

    private boolean refuse(String address, Credential credential) {
        return refusals.refused(address, "GET", "/admin/apps", credential, "the token is not the admin token");
    }

    @Test
    void oneAddressGetsOneLineAMinutePerApi() {
        assertThat(refuse("10.0.0.1", Credential.ADMIN_TOKEN)).isTrue();
        assertThat(refuse("10.0.0.1", Credential.ADMIN_TOKEN)).isFalse();
        assertThat(refuse("10.0.0.1", Credential.ADMIN_TOKEN)).isFalse();
        assertThat(refuse("10.0.0.1", Credential.APP_KEY)).as("another API").isTrue();
        assertThat(refuse("10.0.0.2", Credential.ADMIN_TOKEN)).as("another address").isTrue();

        nanos.addAndGet(Duration.ofSeconds(59).toNanos());
        assertThat(refuse("10.0.0.1", Credential.ADMIN_TOKEN)).isFalse();
        nanos.addAndGet(Duration.ofSeconds(1).toNanos());
        assertThat(refuse("10.0.0.1", Credential.ADMIN_TOKEN)).as("a minute later").isTrue();
    }

    @Test
    void pastTheBoundOfAddressesTheOthersShareOneLine() {
        for (int i = 0; i < RefusedCredentials.MOST_ADDRESSES; i++) {
            assertThat(refuse("10.1." + (i / 256) + "." + (i % 256), Credential.APP_KEY)).isTrue();
        }
        assertThat(refuse("10.200.0.1", Credential.APP_KEY)).isTrue();
        assertThat(refuse("10.200.0.2", Credential.APP_KEY)).as("shares the line of the many").isFalse();

        nanos.addAndGet(Duration.ofMinutes(1).toNanos());
        assertThat(refuse("10.200.0.3", Credential.APP_KEY)).as("old windows make room").isTrue();
        assertThat(refuse("10.200.0.3", Credential.APP_KEY)).isFalse();
        assertThat(refuse("10.200.0.4", Credential.APP_KEY)).isTrue();
    }
}
