package dev.hexaflow.application.annotations;

import static dev.hexaflow.application.annotations.AnnotationBed.AGENT_APP;
import static dev.hexaflow.application.annotations.AnnotationBed.CHAT_APP;
import static dev.hexaflow.application.annotations.AnnotationBed.FLOW_APP;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hexaflow.application.annotations.port.in.AnnotationReplyUseCase.ReplyActionCommand;
import dev.hexaflow.application.annotations.port.in.AnnotationReplyUseCase.ReplyJob;
import dev.hexaflow.application.annotations.service.AnnotationReplyService;
import dev.hexaflow.application.common.ApiError;
import dev.hexaflow.application.common.ApiException;
import dev.hexaflow.domain.annotation.AnnotationSetting;
import java.time.Duration;
import java.util.UUID;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;

/**
 * An app's annotation reply switched on and off as Dify's jobs do it: enable keeps the threshold and the embedding
 * model's names (a second enable replaces them), disable removes them; each answers a job whose status is asked
 * by its action and id for ten minutes; a job of another action or app does not exist; a missing, mistyped or out
 * of range field, or another action, is refused before anything changes.
 */
class AnnotationReplyServiceTest {

    private final AnnotationBed bed = new AnnotationBed();
    private final AnnotationReplyService reply = bed.reply;

    private ReplyJob act(String appId, String action, Double threshold) {
        return reply.act(new ReplyActionCommand(appId, action, threshold, "openai", "text-embedding-3-small"));
    }

    @Test
    void enableKeepsTheSettingAndAnswersACompletedJob() {
        ReplyJob job = act(CHAT_APP, "enable", 0.9);

        assertThat(job.jobStatus()).isEqualTo("completed");
        assertThat(job.errorMsg()).isEmpty();
        assertThat(UUID.fromString(job.jobId()).toString()).isEqualTo(job.jobId());
        assertThat(bed.annotations.setting(CHAT_APP)).contains(new AnnotationSetting(CHAT_APP, 0.9, "openai",
                "text-embedding-3-small", 1_000));
        assertThat(reply.status(CHAT_APP, "enable", job.jobId())).isEqualTo(job);
    }

    @Test
    void aSecondEnableReplacesTheThresholdAndDisableRemovesIt() {
        act(CHAT_APP, "enable", 0.9);
        act(CHAT_APP, "enable", 0.75);

        assertThat(bed.annotations.setting(CHAT_APP).orElseThrow().scoreThreshold()).isEqualTo(0.75);
        ReplyJob off = act(CHAT_APP, "disable", 0.75);
        assertThat(off.jobStatus()).isEqualTo("completed");
        assertThat(bed.annotations.setting(CHAT_APP)).isEmpty();
        assertThat(reply.status(CHAT_APP, "disable", off.jobId()).jobStatus()).isEqualTo("completed");
    }

    @Test
    void aJobOfAnotherActionOrAppOrPastTenMinutesDoesNotExist() {
        ReplyJob job = act(CHAT_APP, "enable", 0.9);

        assertRefused(() -> reply.status(CHAT_APP, "disable", job.jobId()), ApiError.INVALID_PARAM,
                "The job does not exist.");
        assertRefused(() -> reply.status(AGENT_APP, "enable", job.jobId()), ApiError.INVALID_PARAM,
                "The job does not exist.");
        assertRefused(() -> reply.status(CHAT_APP, "enable", UUID.randomUUID().toString()),
                ApiError.INVALID_PARAM, "The job does not exist.");
        assertRefused(() -> reply.status(CHAT_APP, "enable", "job-1"), ApiError.NOT_FOUND,
                "The requested URL was not found on the server.");
        bed.clock.advance(Duration.ofSeconds(600));
        assertThat(reply.status(CHAT_APP, "enable", job.jobId()).jobStatus()).isEqualTo("completed");
        bed.clock.advance(Duration.ofSeconds(1));
        assertRefused(() -> reply.status(CHAT_APP, "enable", job.jobId()), ApiError.INVALID_PARAM,
                "The job does not exist.");
    }

    @Test
    void aMissingOrBadFieldOrAnotherActionChangesNothing() {
        assertRefused(() -> act(CHAT_APP, "enable", null), ApiError.INVALID_PARAM, "score_threshold is required");
        assertRefused(() -> act(CHAT_APP, "enable", 1.01), ApiError.INVALID_PARAM,
                "score_threshold must be between 0 and 1");
        assertRefused(() -> act(CHAT_APP, "enable", -0.1), ApiError.INVALID_PARAM,
                "score_threshold must be between 0 and 1");
        assertRefused(() -> act(CHAT_APP, "enable", Double.NaN), ApiError.INVALID_PARAM,
                "score_threshold must be between 0 and 1");
        assertRefused(() -> reply.act(new ReplyActionCommand(CHAT_APP, "enable", 0.9, null, "m")),
                ApiError.INVALID_PARAM, "embedding_provider_name is required");
        assertRefused(() -> reply.act(new ReplyActionCommand(CHAT_APP, "disable", 0.9, "p", null)),
                ApiError.INVALID_PARAM, "embedding_model_name is required");
        assertRefused(() -> reply.act(new ReplyActionCommand(CHAT_APP, "enable", 0.9, "p".repeat(256), "m")),
                ApiError.INVALID_PARAM, "embedding_provider_name is too long. Maximum 255 characters allowed.");
        assertRefused(() -> act(CHAT_APP, "toggle", 0.9), ApiError.INVALID_PARAM,
                "Unsupported annotation reply action");
        assertThat(bed.annotations.setting(CHAT_APP)).isEmpty();
        assertThat(reply.act(new ReplyActionCommand(CHAT_APP, "enable", 1.0, "p".repeat(255), "m")).jobStatus())
                .isEqualTo("completed");
    }

    @Test
    void aWorkflowAppHasNoAnnotationReply() {
        assertRefused(() -> act(FLOW_APP, "enable", 0.9), ApiError.NOT_CHAT_APP,
                "Please check if your app mode matches the right API route.");
        assertThat(bed.annotations.setting(FLOW_APP)).isEmpty();
    }

    private static void assertRefused(ThrowingCallable call, ApiError kind, String message) {
        assertThatThrownBy(call).isInstanceOfSatisfying(ApiException.class, refused -> {
            assertThat(refused.error()).isEqualTo(kind);
            assertThat(refused.getMessage()).isEqualTo(message);
        });
    }
}
