package dev.hexaflow.app.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import dev.hexaflow.adapters.nodes.fakes.FakeHttpTarget;
import dev.hexaflow.app.EngineConfiguration;
import dev.hexaflow.app.Engines;
import dev.hexaflow.app.UsageException;
import dev.hexaflow.application.workflow.engine.RunListener;
import dev.hexaflow.application.workflow.engine.RunRequest;
import dev.hexaflow.application.workflow.engine.WorkflowEngine;
import dev.hexaflow.domain.workflow.FileValue;
import dev.hexaflow.domain.workflow.RunStatus;
import dev.hexaflow.domain.workflow.Workflow;
import dev.hexaflow.domain.workflow.WorkflowRun;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * The outbound policy on real requests: an http-request node or a file given by URL that points at the server's
 * own machine (in any spelling), or is redirected there, is refused before anything is sent, unless the operator
 * allows it through HEXAFLOW_OUTBOUND_ALLOW; HEXAFLOW_OUTBOUND_DENY wins over the allow list.
 */
class OutboundPolicyNodeTest {

    static final FakeHttpTarget TARGET = new FakeHttpTarget();
    /** A second loopback address, which the tests that allow 127.0.0.1 still refuse. */
    static final HttpServer OTHER = otherLoopback();
    static final AtomicInteger OTHER_HITS = new AtomicInteger();

    static final WorkflowEngine DEFAULTS = engine(Map.of());
    static final WorkflowEngine ALLOWS_127_0_0_1 = engine(Map.of("HEXAFLOW_OUTBOUND_ALLOW", "127.0.0.1"));

    @AfterAll
    static void stop() {
        TARGET.close();
        OTHER.stop(0);
    }

    private static HttpServer otherLoopback() {
        try {
            HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.2", 0), 0);
            server.createContext("/", exchange -> {
                OTHER_HITS.incrementAndGet();
                exchange.sendResponseHeaders(200, -1);
                exchange.close();
            });
            server.start();
            return server;
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static WorkflowEngine engine(Map<String, String> environment) {
        return Engines.standard(EngineConfiguration.fromEnvironment(environment));
    }

    private static int port() {
        return Integer.parseInt(TARGET.url("").replaceAll(".*:", ""));
    }

    private static WorkflowRun get(WorkflowEngine engine, String url) {
        Workflow workflow = Dsl.read(Dsl.httpGet(url, 5));
        return engine.run(engine.prepare(workflow), RunRequest.of(workflow, "u", Map.of()), RunListener.NONE);
    }

    private static String redirect(int status, String to) {
        return TARGET.url("/redirect/" + status + "?to=" + URLEncoder.encode(to, StandardCharsets.UTF_8));
    }

    @Test
    void everySpellingOfTheServersOwnMachineIsRefusedBeforeARequestIsSent() {
        int port = port();
        Map<String, String> refused = Map.of(
                "http://127.0.0.1:" + port + "/echo", "The address 127.0.0.1 of host 127.0.0.1 is not allowed for "
                        + "outbound requests (loopback); allow it with HEXAFLOW_OUTBOUND_ALLOW",
                "http://0.0.0.0:" + port + "/echo", "(unspecified)",
                "http://2130706433:" + port + "/echo", "The address 127.0.0.1 of host 2130706433",
                "http://[::1]:" + port + "/echo", "(loopback)",
                "http://[::ffff:127.0.0.1]:" + port + "/echo", "The address 127.0.0.1 of host [::ffff:127.0.0.1]",
                "http://localhost:" + port + "/echo", "of host localhost is not allowed for outbound requests "
                        + "(loopback)",
                "http://169.254.169.254/latest/meta-data/", "(link-local)");
        int before = TARGET.seen().size();

        refused.forEach((url, message) -> {
            WorkflowRun run = get(DEFAULTS, url);
            assertThat(run.status()).as(url).isEqualTo(RunStatus.FAILED);
            assertThat(run.error()).as(url).contains(message);
        });

        assertThat(TARGET.seen()).hasSize(before);
    }

    @Test
    void aRedirectFromAnAllowedTargetToARefusedOneIsNotFollowed() {
        String other = "http://127.0.0.2:" + OTHER.getAddress().getPort() + "/inside";
        int hits = OTHER_HITS.get();

        WorkflowRun toLoopback = get(ALLOWS_127_0_0_1, redirect(302, other));
        WorkflowRun toMetadata = get(ALLOWS_127_0_0_1, redirect(307, "http://169.254.169.254/latest/meta-data/"));

        assertThat(toLoopback.status()).isEqualTo(RunStatus.FAILED);
        assertThat(toLoopback.error()).contains("The address 127.0.0.2 of host 127.0.0.2 is not allowed for "
                + "outbound requests (loopback)");
        assertThat(OTHER_HITS.get()).isEqualTo(hits);
        assertThat(toMetadata.error()).contains("The address 169.254.169.254").contains("(link-local)");
    }

    @Test
    void redirectsToAllowedTargetsAreFollowedUpToTwentyHops() {
        WorkflowRun followed = get(ALLOWS_127_0_0_1, redirect(302, TARGET.url("/echo")));
        String loop = TARGET.url("/echo");
        for (int i = 0; i < 21; i++) {
            loop = redirect(302, loop);
        }
        WorkflowRun tooMany = get(ALLOWS_127_0_0_1, loop);
        String twenty = TARGET.url("/echo");
        for (int i = 0; i < 20; i++) {
            twenty = redirect(301, twenty);
        }
        WorkflowRun justEnough = get(ALLOWS_127_0_0_1, twenty);

        assertThat(followed.status()).as(followed.error()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(followed.outputs()).containsEntry("status", 200L);
        assertThat(TARGET.seen().get(TARGET.seen().size() - 1).uri()).isEqualTo("/echo");
        assertThat(tooMany.status()).isEqualTo(RunStatus.FAILED);
        assertThat(tooMany.error()).contains("Exceeded maximum allowed redirects");
        assertThat(justEnough.status()).as(justEnough.error()).isEqualTo(RunStatus.SUCCEEDED);
    }

    @Test
    void theOperatorsAllowListOpensAnAddressOrAHostNameAndTheDenyListWinsOverIt() {
        int port = port();
        WorkflowEngine byName = engine(Map.of("HEXAFLOW_OUTBOUND_ALLOW", "localhost"));
        WorkflowEngine denied = engine(Map.of("HEXAFLOW_OUTBOUND_ALLOW", "127.0.0.0/8",
                "HEXAFLOW_OUTBOUND_DENY", "127.0.0.1"));

        assertThat(get(ALLOWS_127_0_0_1, "http://127.0.0.1:" + port + "/echo").status())
                .isEqualTo(RunStatus.SUCCEEDED);
        assertThat(get(ALLOWS_127_0_0_1, "http://2130706433:" + port + "/echo").status())
                .isEqualTo(RunStatus.SUCCEEDED);
        assertThat(get(byName, "http://localhost:" + port + "/echo").status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(get(byName, "http://127.0.0.1:" + port + "/echo").error()).contains("(loopback)");
        assertThat(get(denied, "http://127.0.0.1:" + port + "/echo").error()).isEqualTo("The address 127.0.0.1 of "
                + "host 127.0.0.1 is not allowed for outbound requests (denied by '127.0.0.1' in "
                + "HEXAFLOW_OUTBOUND_DENY)");
    }

    @Test
    void aFileGivenByUrlOnTheServersOwnMachineIsRefusedAndReadOnceAllowed() {
        String url = TARGET.serve("secret.txt", "text/plain", "inside".getBytes(StandardCharsets.UTF_8));
        FileValue file = new FileValue("f1", "document", "remote_url", url, null, "secret.txt", ".txt",
                "text/plain", 6, url);
        Workflow workflow = Dsl.workflow("""
                - {id: start, data: {type: start, title: Start, variables: [{variable: doc, type: file}]}}
                - {id: x, data: {type: document-extractor, title: X, variable_selector: [start, doc]}}
                - {id: end, data: {type: end, title: End, outputs: [{variable: text, value_selector: [x, text]}]}}
                """, """
                - {source: start, target: x}
                - {source: x, target: end}
                """);

        WorkflowRun refused = DEFAULTS.run(DEFAULTS.prepare(workflow), RunRequest.of(workflow, "u",
                Map.of("doc", file)), RunListener.NONE);
        WorkflowRun allowed = ALLOWS_127_0_0_1.run(ALLOWS_127_0_0_1.prepare(workflow), RunRequest.of(workflow, "u",
                Map.of("doc", file)), RunListener.NONE);

        assertThat(refused.status()).isEqualTo(RunStatus.FAILED);
        assertThat(refused.error()).contains("The address 127.0.0.1 of host 127.0.0.1 is not allowed for outbound "
                + "requests (loopback)");
        assertThat(allowed.outputs()).containsEntry("text", "inside");
    }

    @Test
    void aRuleThatCannotBeReadStopsTheStartNamingItsSetting() {
        for (String name : List.of("HEXAFLOW_OUTBOUND_ALLOW", "HEXAFLOW_OUTBOUND_DENY")) {
            assertThatThrownBy(() -> EngineConfiguration.fromEnvironment(Map.of(name, "10.0.0.0/8, http://x/")))
                    .isInstanceOf(UsageException.class).hasMessageStartingWith(name + ": ")
                    .hasMessageContaining("'http://x/'");
        }
    }
}
