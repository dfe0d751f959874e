package dev.hexaflow.application.runs.service;

import dev.hexaflow.application.common.ApiError;
import dev.hexaflow.application.common.ApiException;
import dev.hexaflow.application.files.port.out.UploadRepository;
import dev.hexaflow.application.runs.port.in.AnswerFormUseCase;
import dev.hexaflow.application.runs.port.out.PauseRepository;
import dev.hexaflow.domain.workflow.FileValue;
import dev.hexaflow.domain.workflow.FormStatus;
import dev.hexaflow.domain.workflow.HumanInputForm;
import dev.hexaflow.domain.workflow.KeptForm;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Opens and answers a paused run's forms by their token, and ends those whose time ran out. An answer is claimed
 * in the store (the first wins, on any instance); then the run goes on here ({@link ResumeRuns}).
 */
public final class AnswerFormService implements AnswerFormUseCase {

    private static final int EXPIRED_PER_SWEEP = 100;

    private final PauseRepository pauses;
    private final UploadRepository uploads;
    private final ResumeRuns resumptions;
    private final Clock clock;

    public AnswerFormService(PauseRepository pauses, UploadRepository uploads, ResumeRuns resumptions, Clock clock) {
        this.pauses = pauses;
        this.uploads = uploads;
        this.resumptions = resumptions;
        this.clock = clock;
    }

    @Override
    public KeptForm open(String appId, String token) {
        KeptForm form = find(appId, token);
        requireOpen(answered(form));
        return form;
    }

    @Override
    public void answer(String appId, String token, String user, String action, Map<String, Object> inputs) {
        answer(find(appId, token), () -> find(appId, token), action, inputs);
    }

    @Override
    public KeptForm openByToken(String token) {
        KeptForm form = find(null, token);
        requireOpen(answered(form));
        return form;
    }

    @Override
    public void answerByToken(String token, String action, Map<String, Object> inputs) {
        answer(find(null, token), () -> find(null, token), action, inputs);
    }

    /**
     * @param opened the form the token opened; one that forwards to a called run's form answers that form, whose run
     *               goes on (its caller goes on once it ends or pauses again: {@link ResumeRuns#goOnCallersOf})
     * @param again  the form as kept now, read once more when another answer came first
     */
    private void answer(KeptForm opened, Supplier<KeptForm> again, String action, Map<String, Object> inputs) {
        KeptForm form = answered(opened);
        Supplier<KeptForm> now = form == opened ? again : () -> answered(opened);
        if (form.status() == FormStatus.SUBMITTED && Objects.equals(form.actionId(), action)
                && sameAnswer(form, inputs)) {
            return; // The same answer again: taken as the one given, as a retried request expects.
        }
        requireOpen(form);
        // Files are the uploads of the app whose token was used: a caller's client uploads to its own app.
        Map<String, Object> values = FormInputs.read(form.form(), action, inputs == null ? Map.of() : inputs,
                mapping -> file(opened.appId(), mapping));
        long at = clock.instant().getEpochSecond();
        if (!pauses.answer(form.form().formId(), FormStatus.SUBMITTED, action, values, at)) {
            requireOpen(now.get()); // Someone answered, or it expired, just before.
        }
        resumptions.goOn(form.form().runId());
    }

    @Override
    public int expireDue() {
        long now = clock.instant().getEpochSecond();
        int expired = 0;
        for (KeptForm form : pauses.expired(now, EXPIRED_PER_SWEEP)) {
            if (pauses.answer(form.form().formId(), FormStatus.TIMEOUT, null, Map.of(), now)) {
                expired++;
                resumptions.goOn(form.form().runId());
            }
        }
        return expired;
    }

    @Override
    public int goOnWaitingCallers() {
        return resumptions.goOnCallersOf(null);
    }

    @Override
    public List<KeptForm> formsOf(String appId, String runId) {
        return pauses.forms(runId).stream().filter(form -> form.appId().equals(appId)).toList();
    }

    @Override
    public List<KeptForm> waitingOf(String appId, String runId) {
        return pauses.forms(runId).stream().filter(form -> form.appId().equals(appId)
                && form.status() == FormStatus.WAITING).toList();
    }

    @Override
    public List<KeptForm> waiting(String appId, int limit) {
        if (limit < 1 || limit > 100) {
            throw new ApiException(ApiError.INVALID_PARAM, "limit must be between 1 and 100.");
        }
        return pauses.waiting(appId, limit);
    }

    /** The form of the token, of the app with {@code appId}, or of any app where it is null. */
    private KeptForm find(String appId, String token) {
        if (token == null || token.isEmpty() || token.length() > 128) {
            throw new ApiException(ApiError.NOT_FOUND, "Form not found");
        }
        return pauses.formByToken(token).filter(form -> appId == null || form.appId().equals(appId))
                .orElseThrow(() -> new ApiException(ApiError.NOT_FOUND, "Form not found"));
    }

    /**
     * The form whose state an answer to this one takes: the called run's form it forwards to, or itself. A caller's
     * form stays waiting until its called run moves on, so the called form says whether it was answered.
     */
    private KeptForm answered(KeptForm form) {
        HumanInputForm.FormRef called = form.form().forwardsTo();
        if (called == null || form.status() != FormStatus.WAITING) {
            return form;
        }
        return pauses.forms(called.runId()).stream().filter(kept -> kept.form().formId().equals(called.formId()))
                .findFirst().orElseThrow(() -> new ApiException(ApiError.HUMAN_INPUT_FORM_EXPIRED,
                        "This form has expired, form_id=" + form.form().formId()));
    }

    /** Dify's ensure_form_active: answered, expired, or past its time, each with its own 412. */
    private void requireOpen(KeptForm kept) {
        HumanInputForm form = kept.form();
        if (kept.status() == FormStatus.SUBMITTED) {
            throw new ApiException(ApiError.HUMAN_INPUT_FORM_SUBMITTED,
                    "This form has already been submitted by another user, form_id=" + form.formId());
        }
        if (kept.status() != FormStatus.WAITING || form.expirationTime() <= clock.instant().getEpochSecond()) {
            throw new ApiException(ApiError.HUMAN_INPUT_FORM_EXPIRED, "This form has expired, form_id="
                    + form.formId());
        }
    }

    private static boolean sameAnswer(KeptForm form, Map<String, Object> inputs) {
        Map<String, Object> given = form.submittedData() == null ? Map.of() : form.submittedData();
        return inputs != null && given.keySet().equals(inputs.keySet()) && given.entrySet().stream()
                .allMatch(entry -> !(entry.getValue() instanceof String) || entry.getValue().equals(
                        inputs.get(entry.getKey())));
    }

    /** A file an answer names: this app's upload, or a remote URL. */
    private Optional<FileValue> file(String appId, Map<?, ?> mapping) {
        Object method = mapping.get("transfer_method");
        if ("remote_url".equals(method) && mapping.get("url") instanceof String url
                && (url.startsWith("https://") || url.startsWith("http://"))) {
            String name = url.substring(url.lastIndexOf('/') + 1);
            return Optional.of(new FileValue(null, String.valueOf(mapping.get("type")), "remote_url", url, null,
                    name, "", null, 0, url));
        }
        if ("local_file".equals(method) && mapping.get("upload_file_id") instanceof String id) {
            return uploads.find(id).filter(file -> file.appId().equals(appId)).map(RunWorkflowService::asInput);
        }
        return Optional.empty();
    }
}
