package dev.hexaflow.adapters.http.serviceapi.chat;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.hexaflow.adapters.http.server.Refusals;
import dev.hexaflow.adapters.http.server.RequestLimits;
import dev.hexaflow.adapters.http.serviceapi.ServiceApiAuthentication;
import dev.hexaflow.application.annotations.port.in.AnnotationReplyUseCase;
import dev.hexaflow.application.annotations.port.in.ManageAnnotationsUseCase;
import dev.hexaflow.application.apps.port.in.AuthenticateUseCase;
import dev.hexaflow.application.apps.port.in.Caller;
import dev.hexaflow.application.common.ApiError;
import dev.hexaflow.application.common.ApiException;
import dev.hexaflow.domain.annotation.Annotation;
import io.javalin.Javalin;
import io.javalin.testtools.JavalinTest;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The annotation routes alone, on small hand-written use cases: each request parsed into its command for the
 * authenticated app, each answer in Dify's fields and status, a field of another JSON type refused before any use
 * case runs, and a page's token refused.
 */
class AnnotationRoutesTest {

    static final ObjectMapper JSON = new ObjectMapper();
    static final String KEY = "app-test";
    static final Annotation HOURS = new Annotation("0c6f2a9e-1b7d-4c55-9a0e-3d1f2b4c5e6a", "app-1",
            "What are your opening hours?", "9 to 5", 3, 1_795_882_587L);

    /** Takes {@link #KEY} for app-1; a page's token may do only what pages may. */
    static final AuthenticateUseCase AUTHENTICATE = (token, operation) -> {
        if (token.equals(KEY)) {
            return Caller.appKey("app-1");
        }
        if (token.equals("web-page") && operation.openToWebPages()) {
            return Caller.page("app-1", "web-0123456789abcdef0123456789abcdef");
        }
        throw new ApiException(token.equals("web-page") ? ApiError.FORBIDDEN : ApiError.UNAUTHORIZED,
                "A web page's token cannot " + operation.forKeysOnly());
    };

    final List<Object> heard = new ArrayList<>();

    Javalin server() {
        ManageAnnotationsUseCase manage = new ManageAnnotationsUseCase() {
            @Override
            public AnnotationPage list(ListAnnotationsQuery query) {
                heard.add(query);
                return new AnnotationPage(List.of(HOURS), true, query.limit(), 7, query.page());
            }

            @Override
            public Annotation create(AnnotationCommand command) {
                heard.add(command);
                return HOURS;
            }

            @Override
            public Annotation update(String annotationId, AnnotationCommand command) {
                heard.add(annotationId);
                heard.add(command);
                return HOURS;
            }

            @Override
            public void delete(String appId, String annotationId) {
                heard.add(appId + "/" + annotationId);
            }
        };
        AnnotationReplyUseCase reply = new AnnotationReplyUseCase() {
            @Override
            public ReplyJob act(ReplyActionCommand command) {
                heard.add(command);
                return new ReplyJob("job-1", "completed", "");
            }

            @Override
            public ReplyJob status(String appId, String action, String jobId) {
                heard.add(appId + "/" + action + "/" + jobId);
                return new ReplyJob(jobId, "completed", "");
            }
        };
        return Javalin.create(config -> {
            new ServiceApiAuthentication(AUTHENTICATE).addTo(config.routes);
            new AnnotationRoutes(manage, reply, RequestLimits.DEFAULTS).addTo(config.routes);
            Refusals.mapOnto(config.routes);
        });
    }

    static JsonNode json(io.javalin.testtools.Response response) throws Exception {
        return JSON.readTree(response.body().string());
    }

    @Test
    void theListReadsPageLimitAndKeywordAndAnswersDifysFields() {
        JavalinTest.test(server(), (server, client) -> {
            var listed = client.get("/v1/apps/annotations?page=2&limit=5&keyword=hours",
                    request -> request.header("Authorization", "Bearer " + KEY));

            assertThat(listed.code()).isEqualTo(200);
            assertThat(json(listed).toString()).isEqualTo("{\"data\":[{\"id\":\"" + HOURS.id() + "\",\"question\":"
                    + "\"What are your opening hours?\",\"answer\":\"9 to 5\",\"hit_count\":3,\"created_at\":"
                    + "1795882587}],\"has_more\":true,\"limit\":5,\"total\":7,\"page\":2}");
            assertThat(heard).containsExactly(new ManageAnnotationsUseCase.ListAnnotationsQuery("app-1", 2, 5,
                    "hours"));
        });
    }

    @Test
    void createUpdateAndDeleteCarryTheAppAndAnswer201200And204() {
        JavalinTest.test(server(), (server, client) -> {
            var created = client.post("/v1/apps/annotations", "{\"question\": \"Q\", \"answer\": \"A\"}",
                    request -> request.header("Authorization", "Bearer " + KEY));
            var updated = client.put("/v1/apps/annotations/" + HOURS.id(), "{\"question\": \"Q2\", \"answer\": "
                    + "\"A2\"}", request -> request.header("Authorization", "Bearer " + KEY));
            var deleted = client.delete("/v1/apps/annotations/" + HOURS.id(), null,
                    request -> request.header("Authorization", "Bearer " + KEY));

            assertThat(created.code()).isEqualTo(201);
            assertThat(json(created).get("hit_count").asInt()).isEqualTo(3);
            assertThat(updated.code()).isEqualTo(200);
            assertThat(deleted.code()).isEqualTo(204);
            assertThat(deleted.body().string()).isEmpty();
            assertThat(heard).containsExactly(
                    new ManageAnnotationsUseCase.AnnotationCommand("app-1", "Q", "A"), HOURS.id(),
                    new ManageAnnotationsUseCase.AnnotationCommand("app-1", "Q2", "A2"), "app-1/" + HOURS.id());
        });
    }

    @Test
    void theReplyActionReadsAWholeThresholdAsANumberAndTheStatusItsPath() {
        JavalinTest.test(server(), (server, client) -> {
            var acted = client.post("/v1/apps/annotation-reply/enable", "{\"score_threshold\": 1, "
                    + "\"embedding_provider_name\": \"openai\", \"embedding_model_name\": \"m\"}",
                    request -> request.header("Authorization", "Bearer " + KEY));
            var status = client.get("/v1/apps/annotation-reply/disable/status/job-9",
                    request -> request.header("Authorization", "Bearer " + KEY));

            assertThat(json(acted).toString()).isEqualTo("{\"job_id\":\"job-1\",\"job_status\":\"completed\"}");
            assertThat(json(status).toString()).isEqualTo("{\"job_id\":\"job-9\",\"job_status\":\"completed\","
                    + "\"error_msg\":\"\"}");
            assertThat(heard).containsExactly(new AnnotationReplyUseCase.ReplyActionCommand("app-1", "enable", 1.0,
                    "openai", "m"), "app-1/disable/job-9");
        });
    }

    @Test
    void aFieldOfAnotherTypeOrAPagesTokenIsRefusedBeforeAnyUseCaseRuns() {
        JavalinTest.test(server(), (server, client) -> {
            var number = client.post("/v1/apps/annotations", "{\"question\": 1, \"answer\": \"A\"}",
                    request -> request.header("Authorization", "Bearer " + KEY));
            var threshold = client.post("/v1/apps/annotation-reply/enable", "{\"score_threshold\": \"0.9\"}",
                    request -> request.header("Authorization", "Bearer " + KEY));
            var page = client.get("/v1/apps/annotations", request -> request.header("Authorization",
                    "Bearer web-page"));

            assertThat(number.code()).isEqualTo(400);
            assertThat(json(number).get("message").asText()).isEqualTo("question must be a string");
            assertThat(json(threshold).get("message").asText()).isEqualTo("score_threshold must be a number");
            assertThat(page.code()).isEqualTo(403);
            assertThat(json(page).get("message").asText()).isEqualTo("A web page's token cannot manage annotations");
            assertThat(heard).isEmpty();
        });
    }
}
