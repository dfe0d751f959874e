package dev.hexaflow.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hexaflow.adapters.nodes.fakes.FakeHttpTarget;
import dev.hexaflow.domain.workflow.RunStatus;
import dev.hexaflow.domain.workflow.Workflow;
import dev.hexaflow.domain.workflow.WorkflowRun;
import dev.hexaflow.engine.EngineConfiguration;
import dev.hexaflow.engine.Engines;
import dev.hexaflow.engine.InvalidEngineConfigurationException;
import dev.hexaflow.workflow.engine.RunListener;
import dev.hexaflow.workflow.engine.RunRequest;
import dev.hexaflow.workflow.engine.WorkflowEngine;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * The operator's outbound settings reach the engine's requests: HEXAFLOW_OUTBOUND_ALLOW opens an address or a host
 * name on the server's own machine, HEXAFLOW_OUTBOUND_DENY wins over it, and a rule that cannot be read stops the
 * start. The policy itself (every spelling of the machine, redirects, files by URL) is tested in adapters-nodes:
 * JdkHttpRequesterTest and JdkHttpFileContentsTest.
 */
class OutboundPolicyNodeTest {

    static final FakeHttpTarget TARGET = new FakeHttpTarget();
    static final WorkflowEngine ALLOWS_127_0_0_1 = engine(Map.of("HEXAFLOW_OUTBOUND_ALLOW", "127.0.0.1"));

    @AfterAll
    static void stop() {
        TARGET.close();
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
    void aRuleThatCannotBeReadStopsTheStartNamingItsSetting() {
        for (String name : List.of("HEXAFLOW_OUTBOUND_ALLOW", "HEXAFLOW_OUTBOUND_DENY")) {
            assertThatThrownBy(() -> EngineConfiguration.fromEnvironment(Map.of(name, "10.0.0.0/8, http://x/")))
                    .isInstanceOf(InvalidEngineConfigurationException.class).hasMessageStartingWith(name + ": ")
                    .hasMessageContaining("'http://x/'");
        }
    }
}
