package dev.hexaflow.application.mcpserver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hexaflow.application.common.ApiError;
import dev.hexaflow.application.common.ApiException;
import dev.hexaflow.application.mcpserver.port.in.ManageMcpServerUseCase;
import dev.hexaflow.application.mcpserver.port.in.ManageMcpServerUseCase.McpServerView;
import dev.hexaflow.domain.mcpserver.AppMcpServer;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The operator's switches of an app's MCP server, as Dify's console sets them: none until the first switch on,
 * which makes it with a new code and the app's description; off keeps the code; a new URL replaces it; a blank
 * description is the app's; descriptions past their limits and unknown apps are refused.
 */
class ManageMcpServerServiceTest {

    private final McpServerBed bed = new McpServerBed();
    private final ManageMcpServerUseCase manage = bed.manage();
    private final String appId = bed.app("a1", "Echo", "workflow", true);

    @Test
    void anAppHasNoServerUntilItIsTurnedOnAndThenOneWithANewCodeAndItsDescription() {
        McpServerView before = manage.show(appId);
        assertThat(before.server()).isNull();
        assertThat(before.toolName()).isEqualTo("Echo");
        assertThat(manage.setEnabled(appId, false).server()).isNull();

        AppMcpServer on = manage.setEnabled(appId, true).server();
        assertThat(on.enabled()).isTrue();
        assertThat(on.status()).isEqualTo("active");
        assertThat(AppMcpServer.isCode(on.code())).isTrue();
        assertThat(on.description()).isEqualTo("What Echo does");
        assertThat(on.path()).isEqualTo("/mcp/server/" + on.code() + "/mcp");

        bed.clock.advance(Duration.ofSeconds(5));
        AppMcpServer off = manage.setEnabled(appId, false).server();
        assertThat(off.enabled()).isFalse();
        assertThat(off.code()).isEqualTo(on.code());
        assertThat(off.updatedAt()).isEqualTo(on.updatedAt() + 5);
        assertThat(manage.setEnabled(appId, true).server().code()).isEqualTo(on.code());
    }

    @Test
    void aNewUrlReplacesTheCodeAndNeedsAServer() {
        assertThatThrownBy(() -> manage.newUrl(appId)).isInstanceOfSatisfying(ApiException.class,
                e -> assertThat(e.error()).isEqualTo(ApiError.NOT_FOUND));
        String first = manage.setEnabled(appId, true).server().code();
        AppMcpServer renewed = manage.newUrl(appId).server();
        assertThat(renewed.code()).isNotEqualTo(first);
        assertThat(bed.servers.findByCode(first)).isEmpty();
        assertThat(bed.servers.findByCode(renewed.code())).contains(renewed);
    }

    @Test
    void aDescriptionIsKeptABlankOneIsTheAppsAndOnesPastTheLimitsAreRefused() {
        AppMcpServer described = manage.describe(appId, "Says it back", Map.of("query", "What to say")).server();
        assertThat(described.enabled()).isFalse();
        assertThat(described.description()).isEqualTo("Says it back");
        assertThat(described.parameters()).isEqualTo(Map.of("query", "What to say"));
        assertThat(manage.describe(appId, " ", Map.of()).server().description()).isEqualTo("What Echo does");

        assertThatThrownBy(() -> manage.describe(appId, "x".repeat(AppMcpServer.MAX_DESCRIPTION + 1), Map.of()))
                .isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.error()).isEqualTo(
                        ApiError.INVALID_PARAM));
        assertThatThrownBy(() -> manage.describe(appId, "d", Map.of("query",
                "x".repeat(AppMcpServer.MAX_PARAMETER_DESCRIPTION + 1))))
                .isInstanceOfSatisfying(ApiException.class,
                        e -> assertThat(e.getMessage()).contains("parameters.query"));
        assertThat(manage.show(appId).server().description()).isEqualTo("What Echo does");
    }

    @Test
    void anUnknownAppIsNotFound() {
        assertThatThrownBy(() -> manage.setEnabled("nope", true)).isInstanceOfSatisfying(ApiException.class,
                e -> assertThat(e.getMessage()).isEqualTo("App not found."));
        assertThatThrownBy(() -> manage.show("nope")).isInstanceOf(ApiException.class);
    }
}
