package dev.hexaflow.adapters.http.openapi;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.hexaflow.adapters.http.server.RouteGroup;
import dev.hexaflow.adapters.http.support.ResponseBodies;
import io.javalin.config.RoutesConfig;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;

/**
 * {@code GET /openapi.json}: the OpenAPI 3.1 document of /v1, /v2 and /admin, open to anyone (it tells nothing a
 * reader of the docs does not know). It is kept as YAML beside this class, where it can carry comments, and read
 * into JSON once, by the first request for it: a start does not wait for a document few ask for. The app's tests
 * hold it to the routes the server registers.
 */
public final class OpenApiRoutes implements RouteGroup {

    /** Where the document lives on the class path. */
    public static final String RESOURCE = "/openapi/hexaflow-api.yaml";

    /** The document as JSON, read when first asked for (the JVM makes a class's initialisation happen once). */
    private static final class Document {
        static final byte[] JSON = toJson(readYaml());
    }

    @Override
    public void addTo(RoutesConfig routes) {
        routes.get("/openapi.json", ctx -> {
            // Browsers and tools on other origins (a Swagger UI elsewhere) may read it: it is public.
            ctx.header("Access-Control-Allow-Origin", "*");
            ctx.header("Cache-Control", "no-cache");
            ResponseBodies.write(ctx, 200, "application/json", Document.JSON);
        });
    }

    private static JsonNode readYaml() {
        try (InputStream in = OpenApiRoutes.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException(RESOURCE + " is missing from the class path");
            }
            return new ObjectMapper(new YAMLFactory()).readTree(in);
        } catch (IOException e) {
            throw new UncheckedIOException("The API document " + RESOURCE + " is not valid YAML", e);
        }
    }

    private static byte[] toJson(JsonNode document) {
        try {
            return new ObjectMapper().writeValueAsBytes(document);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
