package dev.hexaflow.adapters.http.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hexaflow.adapters.http.support.HttpRefusal;
import dev.hexaflow.application.common.ApiError;
import dev.hexaflow.application.common.ApiException;
import dev.hexaflow.application.knowledge.port.in.KnowledgeException;
import dev.hexaflow.application.tools.port.in.ToolRegistryException;
import io.javalin.Javalin;
import io.javalin.http.Handler;
import io.javalin.testtools.JavalinTest;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Each refusal a route throws, answered by the one mapping: status, headers and the body byte for byte. */
class RefusalsTest {

    private static Javalin throwing(Handler handler) {
        return Javalin.create(config -> {
            config.routes.get("/refused", handler);
            Refusals.mapOnto(config.routes);
        });
    }

    private static void answers(Handler handler, int status, String body) {
        JavalinTest.test(throwing(handler), (server, client) -> {
            var response = client.get("/refused");
            assertThat(response.code()).isEqualTo(status);
            assertThat(response.headers().get("Content-Type")).containsExactly("application/json");
            assertThat(response.body().string()).isEqualTo(body);
        });
    }

    @Test
    void aRoutesRefusalIsAnsweredWithItsStatusCodeAndMessage() {
        answers(ctx -> {
            throw HttpRefusal.invalid("name is required.");
        }, 400, "{\"code\":\"invalid_param\",\"message\":\"name is required.\",\"status\":400}");
        answers(ctx -> {
            throw new HttpRefusal(415, "unsupported_file_type", "File type not allowed.");
        }, 415, "{\"code\":\"unsupported_file_type\",\"message\":\"File type not allowed.\",\"status\":415}");
    }

    @Test
    void extraFieldsFollowTheThreeStandardOnesInTheOrderGivenNullsIncluded() {
        Map<String, Object> where = new LinkedHashMap<>();
        where.put("line", 3);
        where.put("field", null);
        answers(ctx -> {
            throw new HttpRefusal(400, "invalid_campus_data", "Bad line", where);
        }, 400, "{\"code\":\"invalid_campus_data\",\"message\":\"Bad line\",\"status\":400,\"line\":3,\"field\":null}");
    }

    @Test
    void theApplicationsRefusalsAreAnsweredAsDifyAnswersThem() {
        answers(ctx -> {
            throw new KnowledgeException(KnowledgeException.Reason.CONFLICT, "Taken.");
        }, 409, "{\"code\":\"dataset_name_duplicate\",\"message\":\"Taken.\",\"status\":409}");
        answers(ctx -> {
            throw new KnowledgeException(KnowledgeException.Reason.NOT_FOUND, "No base.");
        }, 404, "{\"code\":\"not_found\",\"message\":\"No base.\",\"status\":404}");
        answers(ctx -> {
            throw new ToolRegistryException(ToolRegistryException.Reason.IN_USE, "Bound.");
        }, 409, "{\"code\":\"in_use\",\"message\":\"Bound.\",\"status\":409}");
        answers(ctx -> {
            throw new ApiException(ApiError.NOT_FOUND, "App not found.");
        }, 404, "{\"code\":\"not_found\",\"message\":\"App not found.\",\"status\":404}");
    }

    @Test
    void anUnauthorizedCallerIsToldTheScheme() {
        JavalinTest.test(throwing(ctx -> {
            throw new ApiException(ApiError.UNAUTHORIZED, "Invalid key.");
        }), (server, client) -> {
            var response = client.get("/refused");
            assertThat(response.code()).isEqualTo(401);
            assertThat(response.headers().get("WWW-Authenticate")).containsExactly("Bearer realm=\"api\"");
        });
    }
}
