package dev.hexaflow.adapters.nodes.document;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hexaflow.adapters.nodes.fakes.FakeHttpTarget;
import dev.hexaflow.adapters.nodes.net.OutboundExchange;
import dev.hexaflow.workflow.engine.StopSignal;
import dev.hexaflow.workflow.port.out.FileContents.FileException;
import dev.hexaflow.domain.net.OutboundPolicy;
import dev.hexaflow.domain.workflow.FileValue;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/** Files given by URL, fetched from a real server on loopback under the outbound policy. */
class JdkHttpFileContentsTest {

    static final FakeHttpTarget FILES = new FakeHttpTarget();
    static final long MAX_BYTES = 100L * 1024 * 1024;
    /** The target is on loopback, which an operator allows as HEXAFLOW_OUTBOUND_ALLOW=127.0.0.1 does. */
    static final JdkHttpFileContents ALLOWS_127_0_0_1 = new JdkHttpFileContents(
            new OutboundExchange(() -> OutboundPolicy.of("127.0.0.1", "")), MAX_BYTES);
    static final JdkHttpFileContents DEFAULTS = new JdkHttpFileContents(
            new OutboundExchange(() -> OutboundPolicy.DEFAULT), MAX_BYTES);

    @AfterAll
    static void stop() {
        FILES.close();
    }

    private static FileValue byUrl(String url, String name) {
        return new FileValue("f1", "document", "remote_url", url, null, name, name.substring(name.lastIndexOf('.')),
                "text/plain", 6, url);
    }

    @Test
    void aFileGivenByUrlOnTheServersOwnMachineIsRefusedAndReadOnceAllowed() {
        String url = FILES.serve("secret.txt", "text/plain", "inside".getBytes(StandardCharsets.UTF_8));
        FileValue file = byUrl(url, "secret.txt");
        int before = FILES.seen().size();

        assertThatThrownBy(() -> DEFAULTS.read(file, StopSignal.NEVER)).isInstanceOf(FileException.class)
                .hasMessageContaining("The address 127.0.0.1 of host 127.0.0.1 is not allowed for outbound "
                        + "requests (loopback)");
        assertThat(FILES.seen()).as("nothing was sent before the refusal").hasSize(before);
        assertThat(new String(ALLOWS_127_0_0_1.read(file, StopSignal.NEVER), StandardCharsets.UTF_8))
                .isEqualTo("inside");
    }

    @Test
    void aMissingFileFailsWithTheStatusTheServerAnswered() {
        FileValue gone = byUrl(FILES.url("/status/404"), "h.txt");

        assertThatThrownBy(() -> ALLOWS_127_0_0_1.read(gone, StopSignal.NEVER)).isInstanceOf(FileException.class)
                .hasMessageStartingWith("404");
    }
}
