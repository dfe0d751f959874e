package dev.hexaflow.application.mcpserver.service;

import dev.hexaflow.application.apps.port.out.AppRepository;
import dev.hexaflow.application.common.ApiError;
import dev.hexaflow.application.common.ApiException;
import dev.hexaflow.application.common.port.out.SecretGenerator;
import dev.hexaflow.application.mcpserver.port.in.ManageMcpServerUseCase;
import dev.hexaflow.application.mcpserver.port.out.AppMcpServerRepository;
import dev.hexaflow.domain.app.App;
import dev.hexaflow.domain.id.TimeOrderedIds;
import dev.hexaflow.domain.mcpserver.AppMcpServer;
import java.time.Clock;
import java.util.Map;

/**
 * The operator's switches of an app's MCP server, as Dify's console sets them: the first switch on makes the server
 * (a new code, the app's description), a blank description falls back to the app's, a new code stops the old URL.
 */
public final class ManageMcpServerService implements ManageMcpServerUseCase {

    private final AppRepository apps;
    private final AppMcpServerRepository servers;
    private final SecretGenerator secrets;
    private final Clock clock;
    private final TimeOrderedIds ids = new TimeOrderedIds();

    public ManageMcpServerService(AppRepository apps, AppMcpServerRepository servers, SecretGenerator secrets,
            Clock clock) {
        this.apps = apps;
        this.servers = servers;
        this.secrets = secrets;
        this.clock = clock;
    }

    @Override
    public McpServerView show(String appId) {
        App app = app(appId);
        return new McpServerView(app.id(), app.name(), servers.ofApp(appId).orElse(null));
    }

    @Override
    public McpServerView setEnabled(String appId, boolean enabled) {
        App app = app(appId);
        AppMcpServer server = servers.ofApp(appId).orElse(null);
        if (server == null && !enabled) {
            return new McpServerView(app.id(), app.name(), null); // off already: nothing to keep
        }
        AppMcpServer changed = server == null ? new AppMcpServer(ids.get(), appId, newCode(),
                app.description(), true, Map.of(), now(), now()) : server.withEnabled(enabled, now());
        servers.save(changed);
        return new McpServerView(app.id(), app.name(), changed);
    }

    @Override
    public McpServerView newUrl(String appId) {
        App app = app(appId);
        AppMcpServer changed = server(appId).withCode(newCode(), now());
        servers.save(changed);
        return new McpServerView(app.id(), app.name(), changed);
    }

    @Override
    public McpServerView describe(String appId, String description, Map<String, String> parameters) {
        App app = app(appId);
        AppMcpServer server = servers.ofApp(appId).orElse(null);
        String text = description == null || description.isBlank() ? app.description() : description;
        AppMcpServer changed;
        try {
            changed = server == null ? new AppMcpServer(ids.get(), appId, newCode(), text, false, parameters, now(),
                    now()) : server.described(text, parameters, now());
        } catch (IllegalArgumentException e) {
            throw new ApiException(ApiError.INVALID_PARAM, e.getMessage());
        }
        servers.save(changed);
        return new McpServerView(app.id(), app.name(), changed);
    }

    private AppMcpServer server(String appId) {
        return servers.ofApp(appId).orElseThrow(() -> new ApiException(ApiError.NOT_FOUND,
                "The app has no MCP server; turn it on first."));
    }

    private App app(String appId) {
        return apps.find(appId).orElseThrow(() -> new ApiException(ApiError.NOT_FOUND, "App not found."));
    }

    private String newCode() {
        return secrets.newSecret(AppMcpServer.CODE_LENGTH);
    }

    private long now() {
        return clock.instant().getEpochSecond();
    }
}
