package dev.hexaflow.domain.trigger;

/** A webhook call Dify would refuse: the HTTP status to answer and Dify's message for it. */
public class WebhookRefusal extends RuntimeException {

    private final int status;

    public WebhookRefusal(int status, String message) {
        super(message);
        this.status = status;
    }

    /** Dify's 400: the call does not fit the trigger's method, content type or parameters. */
    public static WebhookRefusal badRequest(String message) {
        return new WebhookRefusal(400, message);
    }

    public int status() {
        return status;
    }
}
