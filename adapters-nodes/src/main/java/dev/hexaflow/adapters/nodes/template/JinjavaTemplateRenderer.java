package dev.hexaflow.adapters.nodes.template;

import com.hubspot.jinjava.Jinjava;
import com.hubspot.jinjava.JinjavaConfig;
import com.hubspot.jinjava.LegacyOverrides;
import com.hubspot.jinjava.interpret.Context;
import com.hubspot.jinjava.interpret.InterpretException;
import com.hubspot.jinjava.interpret.InvalidArgumentException;
import com.hubspot.jinjava.interpret.InvalidInputException;
import com.hubspot.jinjava.interpret.JinjavaInterpreter;
import com.hubspot.jinjava.interpret.OutputTooBigException;
import com.hubspot.jinjava.interpret.RenderResult;
import com.hubspot.jinjava.interpret.TemplateError;
import com.hubspot.jinjava.interpret.TemplateSyntaxException;
import com.hubspot.jinjava.loader.ResourceNotFoundException;
import com.hubspot.jinjava.tree.Node;
import dev.hexaflow.workflow.engine.RunStoppedException;
import dev.hexaflow.workflow.engine.StopSignal;
import dev.hexaflow.workflow.port.out.TemplateRenderer;
import dev.hexaflow.domain.workflow.FileValue;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Jinja2 through Jinjava, set to behave as Jinja2 does where Dify's templates notice: lists and dicts print as
 * Python prints them, operators take Python's precedence, and one trailing newline is dropped. Booleans print
 * as true/false and None as nothing, where Jinja2 prints True/False and None.
 *
 * <p>A value is printed as it is: Jinjava's nested interpretation (which renders a value that looks like a template
 * again) is off, its {@code striptags} (which does the same) is replaced by Jinja2's, and its {@code render} filter
 * and template loading (Jinja2 in Dify has neither) are refused. A render is bounded: before each node and at each
 * loop iteration it checks the run's stop (which its time limit also sets) and counts the iterations; its output
 * and the strings it builds are capped in length.
 */
public final class JinjavaTemplateRenderer implements TemplateRenderer {

    /** The settings a template is parsed with: a parse does not depend on the limits. */
    private final JinjavaConfig parsing = config(new RenderLimits(Integer.MAX_VALUE, Integer.MAX_VALUE));

    private final Jinjava jinjava = new Jinjava(parsing);

    /** Jinjava's settings per set of limits, as its output and string caps live there. */
    private final Map<RenderLimits, JinjavaConfig> configs = new ConcurrentHashMap<>();

    /** Copies of Jinjava's global context not in use by a render now. */
    private final Queue<Context> globals = new ConcurrentLinkedQueue<>();

    public JinjavaTemplateRenderer() {
        Context global = jinjava.getGlobalContext();
        global.registerTag(new CountedForTag());
        global.registerFilter(new Jinja2StripTagsFilter());
        jinjava.setResourceLocator((name, encoding, interpreter) -> {
            throw new ResourceNotFoundException("templates cannot include, import or extend others: " + name);
        });
    }

    private static JinjavaConfig config(RenderLimits limits) {
        return JinjavaConfig.newBuilder()
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
                .withNestedInterpretationEnabled(false)
                .withDisabled(Map.of(Context.Library.FILTER, java.util.Set.of("render")))
                // Jinjava measures a string printed through the pyish mapper as its Python repr (quotes, escapes):
                // its caps bound the memory a render takes, the exact cap is checked on the output
                .withMaxOutputSize(2L * limits.maxOutputLength() + 2)
                .withMaxStringLength(2L * limits.maxOutputLength() + 2)
                .withNodePreProcessor((node, interpreter) -> RenderGuard.current().ifPresent(RenderGuard::check))
                .build();
    }

    @Override
    public String render(String template, Map<String, Object> variables, RenderLimits limits, StopSignal stop) {
        return render(interpreter -> interpreter.render(template), variables, limits, stop);
    }

    /**
     * Parsed once: each render walks the same tree with an interpreter and a context of its own (the tree is not
     * changed by a render). A template Jinjava reports any error for while parsing is parsed again on each render,
     * so that it fails as it always did; a plain one ({@link PlainTemplate}) is printed without Jinjava when its
     * values allow.
     */
    @Override
    public CompiledTemplate compile(String template) {
        return compile(template, true);
    }

    /** Without {@code direct}, a plain template walks its tree too (for the benchmark's comparison). */
    CompiledTemplate compile(String template, boolean direct) {
        Optional<Node> parsed = parse(template);
        if (parsed.isEmpty()) {
            return (variables, limits, stop) -> render(template, variables, limits, stop);
        }
        Node root = parsed.get();
        CompiledTemplate tree = (variables, limits, stop) -> render(interpreter -> interpreter.render(root),
                variables, limits, stop);
        if (!direct) {
            return tree;
        }
        return PlainTemplate.of(template, root, parsing.isKeepTrailingNewline())
                .<CompiledTemplate>map(plain -> (variables, limits, stop) -> {
                    String output = plain.render(variables, limits, stop);
                    return output != null ? output : tree.render(variables, limits, stop);
                })
                .orElse(tree);
    }

    /** The template's tree, if Jinjava parses it without any error or warning. */
    private Optional<Node> parse(String template) {
        Context global = borrowGlobal();
        try {
            JinjavaInterpreter interpreter = parsing.getInterpreterFactory().newInstance(jinjava,
                    new Context(global, Map.of(), parsing.getDisabled()), parsing);
            Node root = interpreter.parse(template);
            return interpreter.getErrorsCopy().isEmpty() ? Optional.of(root) : Optional.empty();
        } catch (RuntimeException e) {
            return Optional.empty();
        } finally {
            giveBack(global);
        }
    }

    /** The direct path of a template, if it has one (for tests). */
    Optional<PlainTemplate> plain(String template) {
        return parse(template).flatMap(root -> PlainTemplate.of(template, root, parsing.isKeepTrailingNewline()));
    }

    private String render(Function<JinjavaInterpreter, String> walk, Map<String, Object> variables,
            RenderLimits limits, StopSignal stop) {
        Map<String, Object> context = new HashMap<>();
        variables.forEach((name, value) -> context.put(name, plain(value)));
        RenderResult result;
        RenderGuard guard = RenderGuard.open(stop, limits.maxLoopIterations());
        try {
            result = renderForResult(walk, context, configs.computeIfAbsent(limits,
                    JinjavaTemplateRenderer::config));
        } catch (RuntimeException e) {
            result = null;
            if (guard.broken().isEmpty()) {
                throw new TemplateException("The template could not be rendered: " + e.getMessage(), e);
            }
        } finally {
            guard.close();
        }
        if (guard.broken().isPresent()) {
            if (guard.broken().get().stopped()) {
                throw new RunStoppedException();
            }
            throw new TemplateLimitException(guard.broken().get().getMessage());
        }
        List<TemplateError> fatal = result.getErrors().stream()
                .filter(error -> error.getSeverity() == TemplateError.ErrorType.FATAL)
                .toList();
        if (fatal.stream().anyMatch(JinjavaTemplateRenderer::tooBig)) {
            throw tooLong(limits);
        }
        if (!fatal.isEmpty()) {
            throw new TemplateException(fatal.stream()
                    .map(error -> "line " + error.getLineno() + ": " + error.getMessage())
                    .collect(Collectors.joining("; ")), null);
        }
        if (result.getOutput().length() > limits.maxOutputLength()) {
            throw tooLong(limits);
        }
        return result.getOutput();
    }

    static TemplateLimitException tooLong(RenderLimits limits) {
        return new TemplateLimitException("Output length exceeds " + limits.maxOutputLength() + " characters");
    }

    /** Jinjava reports its output and string caps as an error whose cause, at some depth, says so. */
    private static boolean tooBig(TemplateError error) {
        if (error.getReason() == TemplateError.ErrorReason.OUTPUT_TOO_BIG) {
            return true;
        }
        for (Throwable cause = error.getException(); cause != null; cause = cause.getCause()) {
            if (cause instanceof OutputTooBigException) {
                return true;
            }
        }
        return false;
    }

    /**
     * What {@link Jinjava#renderForResult(String, Map)} does, except that it does not copy Jinjava's global
     * context (every function, filter and tag registered anew, a tenth of a four-node run's time) for each
     * render: copies are kept for reuse, each used by one render at a time and reset after it, as Jinjava resets
     * its own global context.
     */
    private RenderResult renderForResult(Function<JinjavaInterpreter, String> walk, Map<String, Object> bindings,
            JinjavaConfig config) {
        Context global = borrowGlobal();
        JinjavaInterpreter interpreter = config.getInterpreterFactory().newInstance(jinjava,
                new Context(global, bindings, config.getDisabled()), config);
        try {
            String output = walk.apply(interpreter);
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
            giveBack(global);
        }
    }

    private Context borrowGlobal() {
        Context global = globals.poll();
        return global != null ? global : jinjava.getGlobalContextCopy();
    }

    private void giveBack(Context global) {
        global.reset();
        globals.offer(global);
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
