package dev.hexaflow.adapters.nodes.template;

import com.hubspot.jinjava.Jinjava;
import com.hubspot.jinjava.JinjavaConfig;
import com.hubspot.jinjava.LegacyOverrides;
import com.hubspot.jinjava.interpret.Context;
import com.hubspot.jinjava.interpret.InterpretException;
import com.hubspot.jinjava.interpret.InvalidArgumentException;
import com.hubspot.jinjava.interpret.InvalidInputException;
import com.hubspot.jinjava.interpret.JinjavaInterpreter;
import com.hubspot.jinjava.interpret.RenderResult;
import com.hubspot.jinjava.interpret.TemplateError;
import com.hubspot.jinjava.interpret.TemplateSyntaxException;
import dev.hexaflow.application.workflow.port.out.TemplateRenderer;
import dev.hexaflow.domain.workflow.FileValue;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
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

    /** Copies of Jinjava's global context not in use by a render now. */
    private final Queue<Context> globals = new ConcurrentLinkedQueue<>();

    @Override
    public String render(String template, Map<String, Object> variables) {
        Map<String, Object> context = new HashMap<>();
        variables.forEach((name, value) -> context.put(name, plain(value)));
        RenderResult result;
        try {
            result = renderForResult(template, context);
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

    /**
     * What {@link Jinjava#renderForResult(String, Map)} does, except that it does not copy Jinjava's global
     * context (every function, filter and tag registered anew, a tenth of a four-node run's time) for each
     * render: copies are kept for reuse, each used by one render at a time and reset after it, as Jinjava resets
     * its own global context.
     */
    private RenderResult renderForResult(String template, Map<String, Object> bindings) {
        Context global = globals.poll();
        if (global == null) {
            global = jinjava.getGlobalContextCopy();
        }
        JinjavaConfig config = jinjava.getGlobalConfig();
        JinjavaInterpreter interpreter = config.getInterpreterFactory().newInstance(jinjava,
                new Context(global, bindings, config.getDisabled()), config);
        try {
            String output = interpreter.render(template);
            return new RenderResult(config.isKeepTrailingNewline() ? output : withoutTrailingNewline(output),
                    interpreter.getContext(), interpreter.getErrorsCopy());
        } catch (TemplateSyntaxException e) {
            return failed(TemplateError.fromException(e), interpreter);
        } catch (InterpretException e) {
            return failed(TemplateError.fromSyntaxError(e), interpreter);
        } catch (InvalidArgumentException e) {
            return failed(TemplateError.fromInvalidArgumentException(e), interpreter);
        } catch (InvalidInputException e) {
            return failed(TemplateError.fromInvalidInputException(e), interpreter);
        } catch (Exception e) {
            return failed(TemplateError.fromException(e), interpreter);
        } finally {
            global.reset();
            globals.offer(global);
        }
    }

    private static RenderResult failed(TemplateError error, JinjavaInterpreter interpreter) {
        return new RenderResult(error, interpreter.getContext(), interpreter.getErrorsCopy());
    }

    /** Jinja2's default (and Jinjava's unless told to keep it): one trailing newline of the output is dropped. */
    private static String withoutTrailingNewline(String output) {
        return output.endsWith("\n") ? output.substring(0, output.length() - 1) : output;
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
