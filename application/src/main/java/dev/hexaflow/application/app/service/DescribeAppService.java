package dev.hexaflow.application.app.service;

import dev.hexaflow.application.app.port.in.ApiError;
import dev.hexaflow.application.app.port.in.ApiException;
import dev.hexaflow.application.app.port.in.DescribeAppUseCase;
import dev.hexaflow.application.app.port.out.AppRepository;
import dev.hexaflow.application.app.port.out.WorkflowVersionRepository;
import dev.hexaflow.application.workflow.port.out.WorkflowDslReader;
import dev.hexaflow.domain.app.App;
import dev.hexaflow.domain.app.UploadLimits;
import dev.hexaflow.domain.app.WorkflowVersion;
import dev.hexaflow.domain.workflow.DataTree;
import dev.hexaflow.domain.workflow.Workflow;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Dify's /parameters from the newest published workflow: the start form as one {@code {type: variable}} item per
 * field, each feature as the DSL has it or Dify's default, and the upload limits.
 */
public final class DescribeAppService implements DescribeAppUseCase {

    private final AppRepository apps;
    private final WorkflowVersionRepository versions;
    private final WorkflowDslReader reader;
    private final UploadLimits limits;

    DescribeAppService(AppRepository apps, WorkflowVersionRepository versions, WorkflowDslReader reader,
            UploadLimits limits) {
        this.apps = apps;
        this.versions = versions;
        this.reader = reader;
        this.limits = limits;
    }

    @Override
    public App app(String appId) {
        return apps.find(appId).orElseThrow(() -> new ApiException(ApiError.NOT_FOUND, "App not found."));
    }

    @Override
    public Map<String, Object> parameters(String appId) {
        WorkflowVersion version = versions.latest(app(appId).id()).orElseThrow(() -> new ApiException(
                ApiError.APP_UNAVAILABLE, "App unavailable, please check your app configurations."));
        Workflow workflow = reader.read(version.dsl().getBytes(StandardCharsets.UTF_8));
        DataTree features = workflow.features();
        Map<String, Object> parameters = new LinkedHashMap<>();
        parameters.put("opening_statement", features.get("opening_statement"));
        parameters.put("suggested_questions", orDefault(features, "suggested_questions", List.of()));
        parameters.put("suggested_questions_after_answer", orDefault(features, "suggested_questions_after_answer",
                Map.of("enabled", false)));
        parameters.put("speech_to_text", orDefault(features, "speech_to_text", Map.of("enabled", false)));
        parameters.put("text_to_speech", orDefault(features, "text_to_speech", Map.of("enabled", false)));
        parameters.put("retriever_resource", orDefault(features, "retriever_resource", Map.of("enabled", false)));
        parameters.put("annotation_reply", Map.of("enabled", false));
        parameters.put("more_like_this", orDefault(features, "more_like_this", Map.of("enabled", false)));
        List<Object> form = new ArrayList<>();
        for (DataTree field : workflow.inputForm()) {
            form.add(Map.of(field.string("type", "text-input"), field.asMap()));
        }
        parameters.put("user_input_form", form);
        parameters.put("sensitive_word_avoidance", orDefault(features, "sensitive_word_avoidance",
                Map.of("enabled", false, "type", "", "configs", List.of())));
        Map<String, Object> image = new LinkedHashMap<>();
        image.put("enabled", false);
        image.put("number_limits", 3);
        image.put("detail", "high");
        image.put("transfer_methods", List.of("remote_url", "local_file"));
        parameters.put("file_upload", orDefault(features, "file_upload", Map.of("image", image)));
        Map<String, Object> system = new LinkedHashMap<>();
        system.put("image_file_size_limit", limits.imageMb());
        system.put("video_file_size_limit", limits.videoMb());
        system.put("audio_file_size_limit", limits.audioMb());
        system.put("file_size_limit", limits.fileMb());
        system.put("workflow_file_upload_limit", 10);
        parameters.put("system_parameters", system);
        return parameters;
    }

    private static Object orDefault(DataTree features, String key, Object otherwise) {
        Object value = features.get(key);
        return value == null ? otherwise : value;
    }
}
