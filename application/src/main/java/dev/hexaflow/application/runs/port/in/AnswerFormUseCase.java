package dev.hexaflow.application.runs.port.in;

import dev.hexaflow.application.common.ApiException;
import dev.hexaflow.domain.workflow.KeptForm;
import java.util.List;
import java.util.Map;

/**
 * A paused run's forms, opened by their token: read, answered once (the run then goes on, on this instance, from
 * where it paused), expired when their time runs out (the node takes its timeout branch), and listed for the app.
 */
public interface AnswerFormUseCase {

    /**
     * The form the token opens, for an app's key.
     *
     * @throws ApiException NOT_FOUND for an unknown token or another app's form; HUMAN_INPUT_FORM_SUBMITTED for one
     *                      answered; HUMAN_INPUT_FORM_EXPIRED for one past its time or whose run ended
     */
    KeptForm open(String appId, String token);

    /**
     * Answers the form and lets its run go on. The first answer wins; the same answer sent again is taken as the
     * one already given.
     *
     * @throws ApiException as {@link #open}, and INVALID_FORM_DATA for an action the form does not offer, an input
     *                      missing or of the wrong kind (the form stays open)
     */
    void answer(String appId, String token, String user, String action, Map<String, Object> inputs);

    /**
     * The form the token opens, for a web page that has no app key: the unguessable token is the credential.
     *
     * @throws ApiException as {@link #open}, NOT_FOUND being only an unknown token
     */
    KeptForm openByToken(String token);

    /**
     * Answers the form the token opens, for a web page that has no app key; otherwise as {@link #answer}.
     *
     * @throws ApiException as {@link #answer}, NOT_FOUND being only an unknown token
     */
    void answerByToken(String token, String action, Map<String, Object> inputs);

    /** Ends each form whose time ran out and lets its run take the timeout branch; answers how many. */
    int expireDue();

    /**
     * Lets each run paused at a tool node, whose called app's run has moved on (ended, or paused again past the form
     * the caller waits on), go on; answers how many. Each goes on on the instance that claims its form first.
     */
    int goOnWaitingCallers();

    /** Every form a run of the app sent out, answered or not, oldest first. */
    List<KeptForm> formsOf(String appId, String runId);

    /** The forms a run of the app waits on now, oldest first; empty for a run not paused. */
    List<KeptForm> waitingOf(String appId, String runId);

    /** An app's forms waiting for a person, newest first (every app's where {@code appId} is null). */
    List<KeptForm> waiting(String appId, int limit);
}
