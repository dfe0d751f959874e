package dev.hexaflow.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every admin route, by every method (HEAD and OPTIONS too, and the methods it has no handler for), without the
 * admin token or with a wrong one: 401 in the admin API's error shape, whatever the route would have answered.
 */
class AdminMethodsHttpTest {

    static final List<String> ROUTES = List.of("/admin/apps", "/admin/apps/APP", "/admin/apps/APP/keys",
            "/admin/apps/APP/keys/app-key", "/admin/apps/APP/site", "/admin/campus/keys",
            "/admin/campus/keys/some-key/ban", "/admin/campus/holidays", "/admin/campus/tutors",
            "/admin/campus/printers", "/admin/campus/unknown", "/admin/", "/admin/no/such/route");
    static final List<String> METHODS = List.of("HEAD", "GET", "POST", "PUT", "DELETE", "PATCH", "OPTIONS");

    @TempDir
    static Path dataDir;
    static TestServer server;
    static String appId;

    @BeforeAll
    static void start() {
        server = TestServer.start(dataDir);
        appId = server.importApp("echo.yml").get("app_id").asText();
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    static Stream<Arguments> everyAdminRouteAndMethod() {
        List<Arguments> cases = new ArrayList<>();
        for (String route : ROUTES) {
            for (String method : METHODS) {
                cases.add(Arguments.of(method, route, null));
                cases.add(Arguments.of(method, route, "Bearer wrong-admin-token-0123456789"));
            }
        }
        return cases.stream();
    }

    @ParameterizedTest(name = "{0} {1} with {2}")
    @MethodSource("everyAdminRouteAndMethod")
    void withoutTheAdminTokenEveryMethodOnEveryAdminRouteIs401(String method, String route, String authorization) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(server.hexaflow.baseUrl()
                + route.replace("APP", appId))).method(method, HttpRequest.BodyPublishers.noBody());
        if (authorization != null) {
            request.header("Authorization", authorization);
        }

        HttpResponse<String> response = TestServer.exchange(request, HttpResponse.BodyHandlers.ofString());

        assertThat(response.statusCode()).as(method + " " + route + ": " + response.body()).isEqualTo(401);
        assertThat(response.headers().firstValue("WWW-Authenticate")).hasValue("Bearer realm=\"hexaflow-admin\"");
        if (!method.equals("HEAD")) {
            JsonNode body = TestServer.json(response);
            assertThat(body.get("code").asText()).isEqualTo("unauthorized");
            assertThat(body.get("status").asInt()).isEqualTo(401);
            assertThat(body.get("message").asText()).contains("Authorization: Bearer <admin token>");
        }
    }
}
