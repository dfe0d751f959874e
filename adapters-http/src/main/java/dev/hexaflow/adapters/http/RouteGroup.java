package dev.hexaflow.adapters.http;

import io.javalin.config.RoutesConfig;

/** A set of routes that the server mounts; each interface of Hexaflow is one group. */
public interface RouteGroup {

    void addTo(RoutesConfig routes);
}
