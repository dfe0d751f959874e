package dev.hexaflow.adapters.http.webapp;

import dev.hexaflow.adapters.http.server.RequestLimits;
import dev.hexaflow.adapters.http.server.RouteGroup;
import dev.hexaflow.adapters.http.support.HttpRefusal;
import dev.hexaflow.adapters.http.support.JsonRequestBodies;
import dev.hexaflow.adapters.http.support.ResponseBodies;
import dev.hexaflow.adapters.http.support.WindowRateLimit;
import dev.hexaflow.adapters.http.wire.DifyWire;
import dev.hexaflow.adapters.http.wire.HumanInputWire;
import dev.hexaflow.application.common.ApiError;
import dev.hexaflow.application.common.ApiException;
import dev.hexaflow.application.runs.port.in.AnswerFormUseCase;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;

/**
 * A paused run's form as a page of its own, as Dify's web app serves it: {@code GET /form/{token}} (the link a
 * form's mail carries) and the routes its script calls, {@code GET|POST /api/form/human_input/{token}}. No key:
 * the unguessable token is the credential, so answers are limited per client address.
 */
public final class FormPageRoutes implements RouteGroup {

    /** Dify's WEB_FORM_SUBMIT_RATE_LIMIT: enough for a person who mistypes, too few to try tokens or answers. */
    static final int ANSWERS_PER_MINUTE = 30;

    private final AnswerFormUseCase forms;
    private final JsonRequestBodies bodies;
    private final WindowRateLimit answers;
    private final WebAssets assets = WebAssets.load();

    public FormPageRoutes(AnswerFormUseCase forms, RequestLimits limits) {
        this.forms = forms;
        this.bodies = new JsonRequestBodies(limits);
        this.answers = new WindowRateLimit(ANSWERS_PER_MINUTE, Duration.ofMinutes(1), Clock.systemUTC());
    }

    @Override
    public void addTo(RoutesConfig routes) {
        routes.get("/form/{form_token}", this::page);
        routes.get("/api/form/human_input/{form_token}", this::open);
        routes.post("/api/form/human_input/{form_token}", this::answer);
    }

    private void page(Context ctx) {
        WebAppRoutes.secure(ctx);
        ctx.header("Cache-Control", "no-store");
        String title = "A form is waiting for your answer";
        try {
            String node = forms.openByToken(ctx.pathParam("form_token")).form().nodeTitle();
            title = node.isBlank() ? title : node;
        } catch (ApiException e) {
            if (e.error() == ApiError.NOT_FOUND) {
                ResponseBodies.write(ctx, 404, "text/html; charset=utf-8", assets.notFoundPage("Form not found"));
                return;
            }
            // Answered or expired: the page says so, from what its script reads.
        }
        ResponseBodies.write(ctx, 200, "text/html; charset=utf-8",
                assets.formPage(ctx.pathParam("form_token"), title));
    }

    private void open(Context ctx) {
        ctx.header("Cache-Control", "no-store");
        json(ctx, HumanInputWire.form(forms.openByToken(ctx.pathParam("form_token"))));
    }

    private void answer(Context ctx) {
        ctx.header("Cache-Control", "no-store");
        if (!answers.allows(ctx.req().getRemoteAddr())) {
            throw new HttpRefusal(429, "web_form_rate_limit_exceeded",
                    "Too many submissions from this address. Please try again in a minute.");
        }
        Map<String, Object> body = bodies.object(ctx);
        if (!(body.getOrDefault("inputs", Map.of()) instanceof Map<?, ?> inputs)) {
            throw new ApiException(ApiError.INVALID_FORM_DATA, "inputs must be an object");
        }
        if (!(body.get("action") instanceof String action)) {
            throw new ApiException(ApiError.INVALID_FORM_DATA, "Invalid action: " + body.get("action"));
        }
        @SuppressWarnings("unchecked")
        Map<String, Object> given = (Map<String, Object>) inputs;
        forms.answerByToken(ctx.pathParam("form_token"), action, given);
        json(ctx, Map.of());
    }

    private static void json(Context ctx, Object body) {
        ResponseBodies.write(ctx, 200, "application/json; charset=utf-8",
                DifyWire.json(body).getBytes(StandardCharsets.UTF_8));
    }
}
