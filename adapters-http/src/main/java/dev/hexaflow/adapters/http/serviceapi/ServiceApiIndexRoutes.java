package dev.hexaflow.adapters.http.serviceapi;

import dev.hexaflow.adapters.http.server.RouteGroup;
import io.javalin.config.RoutesConfig;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The Service API's index, {@code GET /v1/}, as Dify's {@code IndexApi} answers it: no key is asked, and the answer
 * says which API and which server answer here (a client's check that its base URL is right).
 */
public final class ServiceApiIndexRoutes implements RouteGroup {

    private final Map<String, String> index;

    /** @param serverVersion this build's version, answered as {@code server_version} */
    public ServiceApiIndexRoutes(String serverVersion) {
        Map<String, String> body = new LinkedHashMap<>();
        body.put("welcome", "Dify OpenAPI");
        body.put("api_version", "v1");
        body.put("server_version", serverVersion);
        this.index = Collections.unmodifiableMap(body);
    }

    @Override
    public void addTo(RoutesConfig routes) {
        routes.get("/v1/", ctx -> ServiceApiBodies.json(ctx, 200, index));
    }
}
