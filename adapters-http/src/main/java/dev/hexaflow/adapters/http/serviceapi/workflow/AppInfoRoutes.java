package dev.hexaflow.adapters.http.serviceapi.workflow;

import static dev.hexaflow.adapters.http.serviceapi.ServiceApiAuthentication.appId;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import dev.hexaflow.adapters.http.server.RouteGroup;
import dev.hexaflow.adapters.http.serviceapi.ServiceApiAuthentication.Access;
import dev.hexaflow.adapters.http.serviceapi.ServiceApiBodies;
import dev.hexaflow.adapters.http.serviceapi.SiteBody;
import dev.hexaflow.application.apps.port.in.DescribeAppUseCase.AppParameters;
import dev.hexaflow.application.apps.port.in.DescribeAppUseCase;
import dev.hexaflow.domain.app.App;
import dev.hexaflow.domain.app.UploadLimits;
import dev.hexaflow.domain.workflow.DataTree;
import dev.hexaflow.domain.workflow.InputField;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** What an app shows of itself under {@code /v1}: its info, its parameters and its web page settings. */
public final class AppInfoRoutes implements RouteGroup {

    /** How many files a workflow takes at most in one input, as Dify's default configuration has it. */
    static final int WORKFLOW_FILE_UPLOAD_LIMIT = 10;

    private final DescribeAppUseCase describe;

    public AppInfoRoutes(DescribeAppUseCase describe) {
        this.describe = describe;
    }

    @Override
    public void addTo(RoutesConfig routes) {
        routes.get("/v1/info", ctx -> ServiceApiBodies.json(ctx, 200, Info.of(describe.app(appId(ctx)))),
                Access.DESCRIBE);
        routes.get("/v1/parameters", ctx -> ServiceApiBodies.json(ctx, 200,
                Parameters.of(describe.parameters(appId(ctx)))), Access.DESCRIBE);
        routes.get("/v1/site", this::site, Access.DESCRIBE);
    }

    private void site(Context ctx) {
        ServiceApiBodies.json(ctx, 200, SiteBody.of(describe.app(appId(ctx)).site()));
    }

    /** Dify's /info. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record Info(String name, String description, List<String> tags, String mode, String authorName) {

        static Info of(App app) {
            return new Info(app.name(), app.description(), app.tags(), app.mode(), "");
        }
    }

    /**
     * Dify's /parameters: each feature as the DSL has it or Dify's default, the start form as one
     * {@code {type: field}} item per field, and the upload limits.
     */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record Parameters(Object openingStatement, Object suggestedQuestions, Object suggestedQuestionsAfterAnswer,
            Object speechToText, Object textToSpeech, Object retrieverResource, Object annotationReply,
            Object moreLikeThis, List<Map<String, Object>> userInputForm, Object sensitiveWordAvoidance,
            Object fileUpload, SystemParameters systemParameters) {

        private static final Map<String, Object> OFF = Map.of("enabled", false);

        static Parameters of(AppParameters app) {
            DataTree features = app.features();
            Map<String, Object> image = new LinkedHashMap<>();
            image.put("enabled", false);
            image.put("number_limits", 3);
            image.put("detail", "high");
            image.put("transfer_methods", List.of("remote_url", "local_file"));
            return new Parameters(features.get("opening_statement"),
                    orDefault(features, "suggested_questions", List.of()),
                    orDefault(features, "suggested_questions_after_answer", OFF),
                    orDefault(features, "speech_to_text", OFF), orDefault(features, "text_to_speech", OFF),
                    orDefault(features, "retriever_resource", OFF), OFF, orDefault(features, "more_like_this", OFF),
                    app.inputForm().stream().map(Parameters::formItem).toList(),
                    orDefault(features, "sensitive_word_avoidance",
                            Map.of("enabled", false, "type", "", "configs", List.of())),
                    orDefault(features, "file_upload", Map.of("image", image)),
                    SystemParameters.of(app.uploadLimits()));
        }

        private static Map<String, Object> formItem(InputField field) {
            return Map.of(field.kind().wireName(), field.data().asMap());
        }

        private static Object orDefault(DataTree features, String key, Object otherwise) {
            Object value = features.get(key);
            return value == null ? otherwise : value;
        }
    }

    /** The server's upload limits, in megabytes, and how many files one input takes. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record SystemParameters(long imageFileSizeLimit, long videoFileSizeLimit, long audioFileSizeLimit,
            long fileSizeLimit, int workflowFileUploadLimit) {

        static SystemParameters of(UploadLimits limits) {
            return new SystemParameters(limits.imageMb(), limits.videoMb(), limits.audioMb(), limits.fileMb(),
                    WORKFLOW_FILE_UPLOAD_LIMIT);
        }
    }
}
