package dev.hexaflow.application.workflow.port.out;

import java.util.Map;

/** Renders a Jinja2 template with named variables, as Dify's template-transform and jinja2 prompts do. */
public interface TemplateRenderer {

    /** @throws TemplateException when the template cannot be parsed or rendered */
    String render(String template, Map<String, Object> variables);

    /** A template that failed, with the engine's reason. */
    class TemplateException extends RuntimeException {
        public TemplateException(String message, Throwable cause) {
            super(message, cause);
        }
    }
}
