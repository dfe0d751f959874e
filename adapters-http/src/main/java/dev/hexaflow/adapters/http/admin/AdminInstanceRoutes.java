package dev.hexaflow.adapters.http.admin;

import dev.hexaflow.adapters.http.server.RouteGroup;
import dev.hexaflow.adapters.http.support.JsonResponses;
import dev.hexaflow.application.instances.port.in.ListInstancesUseCase;
import dev.hexaflow.application.instances.port.in.ListInstancesUseCase.InstanceView;
import dev.hexaflow.application.instances.port.in.ListInstancesUseCase.Instances;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import java.util.LinkedHashMap;
import java.util.Map;

/** The store's state and the instances serving it, each with its lease: the console's health page reads it. */
public final class AdminInstanceRoutes implements RouteGroup {

    private final AdminAuthorization admin;
    private final ListInstancesUseCase instances;

    public AdminInstanceRoutes(AdminAuthorization admin, ListInstancesUseCase instances) {
        this.admin = admin;
        this.instances = instances;
    }

    @Override
    public void addTo(RoutesConfig routes) {
        routes.get("/admin/instances", admin.require(this::list));
    }

    private void list(Context ctx) {
        Instances now = instances.list();
        Map<String, Object> store = new LinkedHashMap<>();
        store.put("status", now.storeProblem() == null ? "ok" : now.storeProblem());
        store.put("reason", now.storeReason());
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("store", store);
        body.put("shared", now.shared());
        body.put("instances", now.instances().stream().map(AdminInstanceRoutes::instance).toList());
        ctx.status(200).contentType("application/json").result(JsonResponses.json(body));
    }

    /** An instance's lease, its times in Unix milliseconds as the store's clock kept them. */
    private static Map<String, Object> instance(InstanceView view) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("id", view.id());
        body.put("machine", view.machine());
        body.put("origin", view.origin());
        body.put("started_at", view.startedAt());
        body.put("renewed_at", view.renewedAt());
        body.put("live", view.live());
        body.put("answering", view.answering());
        return body;
    }
}
