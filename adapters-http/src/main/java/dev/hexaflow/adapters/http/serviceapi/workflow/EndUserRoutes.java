package dev.hexaflow.adapters.http.serviceapi.workflow;

import static dev.hexaflow.adapters.http.serviceapi.ServiceApiAuthentication.appId;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import dev.hexaflow.adapters.http.server.RouteGroup;
import dev.hexaflow.adapters.http.serviceapi.ServiceApiAuthentication.Access;
import dev.hexaflow.adapters.http.serviceapi.ServiceApiBodies;
import dev.hexaflow.adapters.http.support.PythonTimes;
import dev.hexaflow.application.apps.port.in.FindEndUserUseCase;
import dev.hexaflow.domain.app.EndUser;
import io.javalin.config.RoutesConfig;

/**
 * Dify's {@code GET /v1/end-users/{end_user_id}}: an end user of the key's app (the {@code user} a client sends,
 * made an end user on its first use), by the id answers such as a run's {@code created_by} name. An app's key
 * only: a web page's token would learn of the app's other users.
 */
public final class EndUserRoutes implements RouteGroup {

    private final FindEndUserUseCase endUsers;

    public EndUserRoutes(FindEndUserUseCase endUsers) {
        this.endUsers = endUsers;
    }

    @Override
    public void addTo(RoutesConfig routes) {
        routes.get("/v1/end-users/{end_user_id}", ctx -> ServiceApiBodies.json(ctx, 200,
                Detail.of(endUsers.find(appId(ctx), ctx.pathParam("end_user_id")))), Access.READ_RUNS);
    }

    /**
     * Dify's EndUserDetail. Hexaflow has no workspaces, so no tenant; an end user is made only by the Service API
     * and its pages, and never renamed, so its type is Dify's {@code service-api} and its name none.
     */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record Detail(String id, String tenantId, String appId, String type, String externalUserId, String name,
            boolean isAnonymous, String sessionId, String createdAt, String updatedAt) {

        /** Dify's default user when a request names none; Hexaflow always asks for one, but it may be sent. */
        private static final String DEFAULT_USER = "DEFAULT-USER";

        static Detail of(EndUser user) {
            String created = PythonTimes.isoformat(user.createdAt());
            return new Detail(user.id(), null, user.appId(), "service-api", user.sessionId(), null,
                    DEFAULT_USER.equals(user.sessionId()), user.sessionId(), created, created);
        }
    }
}
