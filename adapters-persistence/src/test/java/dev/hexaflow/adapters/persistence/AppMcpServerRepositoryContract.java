package dev.hexaflow.adapters.persistence;

import static dev.hexaflow.adapters.persistence.WorkflowFixtures.APP;
import static dev.hexaflow.adapters.persistence.WorkflowFixtures.OTHER_APP;
import static org.assertj.core.api.Assertions.assertThat;

import dev.hexaflow.application.mcpserver.port.out.AppMcpServerRepository;
import dev.hexaflow.domain.mcpserver.AppMcpServer;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * What every {@link AppMcpServerRepository} promises; each adapter runs it by extending this class. A server is
 * kept whole (its input descriptions in their order) and found by its app or by its URL's code; saving it again
 * replaces it, so an old code finds nothing.
 */
abstract class AppMcpServerRepositoryContract {

    protected abstract AppMcpServerRepository repository();

    private static final String CODE = "a".repeat(AppMcpServer.CODE_LENGTH);
    private static final String OTHER_CODE = "b".repeat(AppMcpServer.CODE_LENGTH);

    @Test
    void aServerIsFoundWholeByItsAppAndByItsCode() {
        Map<String, String> parameters = new LinkedHashMap<>();
        parameters.put("topic", "What to write about; \"quoted\" and ünïcode");
        parameters.put("length", "");
        AppMcpServer server = new AppMcpServer("s1", APP, CODE, "Writes a poem", true, parameters, 10, 11);
        repository().save(server);
        repository().save(new AppMcpServer("s2", OTHER_APP, OTHER_CODE, "", false, Map.of(), 12, 12));

        AppMcpServer found = repository().ofApp(APP).orElseThrow();
        assertThat(found).isEqualTo(server);
        assertThat(found.parameters().keySet()).containsExactly("topic", "length");
        assertThat(repository().findByCode(OTHER_CODE).orElseThrow().appId()).isEqualTo(OTHER_APP);
        assertThat(repository().ofApp("no-such-app")).isEmpty();
        assertThat(repository().findByCode("c".repeat(AppMcpServer.CODE_LENGTH))).isEmpty();
    }

    @Test
    void aNewCodeReplacesTheOldOneAndASwitchIsKept() {
        AppMcpServer server = new AppMcpServer("s1", APP, CODE, "d", true, Map.of(), 10, 10);
        repository().save(server);
        repository().save(server.withCode(OTHER_CODE, 20).withEnabled(false, 21));

        assertThat(repository().findByCode(CODE)).isEmpty();
        AppMcpServer found = repository().findByCode(OTHER_CODE).orElseThrow();
        assertThat(found.enabled()).isFalse();
        assertThat(found.updatedAt()).isEqualTo(21);
        assertThat(found.createdAt()).isEqualTo(10);
    }

    @Test
    void theLongestDescriptionsAreKept() {
        Map<String, String> parameters = new LinkedHashMap<>();
        for (int i = 0; i < AppMcpServer.MAX_PARAMETERS; i++) {
            parameters.put("v".repeat(AppMcpServer.MAX_VARIABLE - 3) + String.format("%03d", i),
                    "d".repeat(AppMcpServer.MAX_PARAMETER_DESCRIPTION));
        }
        AppMcpServer server = new AppMcpServer("s1", APP, CODE, "x".repeat(AppMcpServer.MAX_DESCRIPTION), true,
                parameters, 1, 1);
        repository().save(server);

        assertThat(repository().ofApp(APP).orElseThrow()).isEqualTo(server);
    }
}
