package dev.hexaflow.adapters.nodes.template;

import com.hubspot.jinjava.Jinjava;
import com.hubspot.jinjava.JinjavaConfig;
import com.hubspot.jinjava.LegacyOverrides;
import com.hubspot.jinjava.interpret.RenderResult;
import com.hubspot.jinjava.interpret.TemplateError;
import dev.hexaflow.application.workflow.port.out.TemplateRenderer;
import dev.hexaflow.domain.workflow.FileValue;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Jinja2 through Jinjava, set to behave as Jinja2 does where Dify's templates notice: lists and dicts print as
 * Python prints them, operators take Python's precedence, and one trailing newline is dropped. Booleans print
 * as true/false and None as nothing, where Jinja2 prints True/False and None.
 */
public final class JinjavaTemplateRenderer implements TemplateRenderer {

    private final Jinjava jinjava = new Jinjava(JinjavaConfig.newBuilder()
            .withLegacyOverrides(LegacyOverrides.newBuilder()
                    .withUsePyishObjectMapper(true)
                    .withIterateOverMapKeys(true)
                    .withEvaluateMapKeys(true)
                    .withUseNaturalOperatorPrecedence(true)
                    .withParseWhitespaceControlStrictly(true)
                    .withKeepNullableLoopValues(true)
                    .withDefaultKeepTrailingNewlineBehavior(false)
                    .build())
            .withFailOnUnknownTokens(false)
            .build());

    @Override
    public String render(String template, Map<String, Object> variables) {
        Map<String, Object> context = new HashMap<>();
        variables.forEach((name, value) -> context.put(name, plain(value)));
        RenderResult result;
        try {
            result = jinjava.renderForResult(template, context);
        } catch (RuntimeException e) {
            throw new TemplateException("The template could not be rendered: " + e.getMessage(), e);
        }
        List<TemplateError> fatal = result.getErrors().stream()
                .filter(error -> error.getSeverity() == TemplateError.ErrorType.FATAL)
                .toList();
        if (!fatal.isEmpty()) {
            throw new TemplateException(fatal.stream()
                    .map(error -> "line " + error.getLineno() + ": " + error.getMessage())
                    .collect(Collectors.joining("; ")), null);
        }
        return result.getOutput();
    }

    /** Files reach templates as the dicts Dify gives them. */
    private static Object plain(Object value) {
        if (value instanceof FileValue file) {
            return file.asMap();
        }
        if (value instanceof List<?> list) {
            return list.stream().map(JinjavaTemplateRenderer::plain).toList();
        }
        return value;
    }
}
