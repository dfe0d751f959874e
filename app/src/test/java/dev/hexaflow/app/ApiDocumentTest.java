package dev.hexaflow.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.swagger.v3.parser.OpenAPIV3Parser;
import io.swagger.v3.parser.core.models.SwaggerParseResult;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The API document at {@code /openapi.json} cannot drift from the server: every route the server registers has an
 * operation in it and every operation a route (method and path template compared as written), and a real OpenAPI
 * 3.1 parser reads it without a message. {@link ApiDocumentOperationsHttpTest} sends each operation once.
 */
class ApiDocumentTest {

    /** Where a missing operation goes: the document is kept as YAML in adapters-http's resources. */
    static final String DOCUMENT_SOURCE = "adapters-http/src/main/resources/openapi/hexaflow-api.yaml";

    /**
     * Routes that are not an API and so have no operation: pages and their files for browsers (the landing page,
     * each app's page, the token that page asks for, its scripts and style; the console and its sign-in and
     * sign-out, which only its page calls: API clients send the admin token itself), and the document itself.
     */
    static final Set<String> NOT_API = Set.of(
            "GET /",
            "GET /openapi.json",
            "GET /apps/{site_code}",
            "POST /apps/{site_code}/token",
            "GET /web/{file}",
            "GET /form/{form_token}",
            "GET /console",
            "POST /console/session",
            "DELETE /console/session");

    /**
     * The campus feed's fallbacks: any other path or verb under /v2 is answered 501 "Invalid method" in the feed's
     * envelope, as the one /v2 operation's description says; they are no operations of their own.
     */
    static final Set<String> CAMPUS_FALLBACKS = Set.of("GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS").stream()
            .flatMap(method -> java.util.stream.Stream.of(method + " /v2", method + " /v2/<rest>"))
            .collect(java.util.stream.Collectors.toUnmodifiableSet());

    private static final List<String> METHODS = List.of("get", "put", "post", "delete", "patch", "head", "options");

    @TempDir
    static Path dataDir;
    static TestServer server;
    static JsonNode document;

    @BeforeAll
    static void start() {
        server = TestServer.start(dataDir);
        HttpResponse<String> answer = server.get("/openapi.json");
        assertThat(answer.statusCode()).isEqualTo(200);
        document = TestServer.json(answer);
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    /** Each operation of the document as {@code "METHOD /path/{param}"}, sorted. */
    static Set<String> operations(JsonNode document) {
        Set<String> operations = new TreeSet<>();
        document.get("paths").fields().forEachRemaining(path -> {
            for (String method : METHODS) {
                if (path.getValue().has(method)) {
                    operations.add(method.toUpperCase(Locale.ROOT) + " " + path.getKey());
                }
            }
        });
        return operations;
    }

    @Test
    void everyRouteTheServerRegistersHasAnOperationInTheDocument() {
        Set<String> registered = new TreeSet<>(server.hexaflow.routes());
        registered.removeAll(NOT_API);
        registered.removeAll(CAMPUS_FALLBACKS);
        Set<String> documented = operations(document);

        List<String> undocumented = registered.stream().filter(route -> !documented.contains(route)).toList();
        assertThat(registered).as("routes the server registers").hasSizeGreaterThan(80);
        assertThat(undocumented).as("routes the server registers with no operation in " + DOCUMENT_SOURCE
                + " (add one for each, or, for a page that is no API, add it to ApiDocumentTest.NOT_API)")
                .isEmpty();
    }

    @Test
    void everyOperationInTheDocumentHasARoute() {
        Set<String> registered = new TreeSet<>(server.hexaflow.routes());
        List<String> stale = operations(document).stream().filter(operation -> !registered.contains(operation))
                .toList();

        assertThat(stale).as("operations in " + DOCUMENT_SOURCE + " that no route answers (remove each, or make"
                + " its path template the route's, parameter names included)").isEmpty();
        assertThat(NOT_API).as("ApiDocumentTest.NOT_API names only routes the server registers")
                .isSubsetOf(registered);
    }

    @Test
    void anOpenApiParserReadsTheServedDocumentWithoutAMessage() {
        SwaggerParseResult parsed = new OpenAPIV3Parser().readContents(server.get("/openapi.json").body());

        assertThat(parsed.getMessages()).as("the parser's messages").isEmpty();
        assertThat(parsed.getOpenAPI().getOpenapi()).isEqualTo("3.1.0");
        assertThat(parsed.getOpenAPI().getPaths()).hasSizeGreaterThan(60);
    }

    @Test
    void everyOperationHasAnIdSecurityOrNoneAndAnErrorAnswer() {
        List<String> incomplete = new ArrayList<>();
        Set<String> ids = new TreeSet<>();
        document.get("paths").fields().forEachRemaining(path -> {
            for (String method : METHODS) {
                JsonNode operation = path.getValue().get(method);
                if (operation == null) {
                    continue;
                }
                String name = method.toUpperCase(Locale.ROOT) + " " + path.getKey();
                if (!operation.hasNonNull("operationId") || !ids.add(operation.get("operationId").asText())) {
                    incomplete.add(name + ": no operationId, or one another operation has");
                }
                if (!operation.has("security")) {
                    incomplete.add(name + ": no security (an empty list for a public one)");
                }
                if (!operation.path("responses").fieldNames().hasNext()) {
                    incomplete.add(name + ": no responses");
                }
            }
        });
        assertThat(incomplete).isEmpty();
    }
}
