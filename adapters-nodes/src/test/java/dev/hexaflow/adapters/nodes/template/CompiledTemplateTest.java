package dev.hexaflow.adapters.nodes.template;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hexaflow.domain.workflow.FileValue;
import dev.hexaflow.workflow.engine.RunStoppedException;
import dev.hexaflow.workflow.engine.StopSignal;
import dev.hexaflow.workflow.port.out.TemplateRenderer.CompiledTemplate;
import dev.hexaflow.workflow.port.out.TemplateRenderer.RenderLimits;
import dev.hexaflow.workflow.port.out.TemplateRenderer.TemplateException;
import dev.hexaflow.workflow.port.out.TemplateRenderer.TemplateLimitException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/**
 * Templates compiled once: the parsed tree and the direct path of plain templates render exactly what a template
 * parsed on each render does (output, or the exception and its message), for every kind of value, and keep every
 * limit.
 */
class CompiledTemplateTest {

    static final RenderLimits LIMITS = new RenderLimits(1_000_000, 400_000);
    static final StopSignal STOPPED = new StopSignal() {
        @Override
        public boolean isStopped() {
            return true;
        }

        @Override
        public AutoCloseable onStop(Runnable action) {
            action.run();
            return () -> { };
        }
    };

    final JinjavaTemplateRenderer renderer = new JinjavaTemplateRenderer();

    /** One value of each kind a variable may hold, by name. */
    static Map<String, Object> everyKind() {
        Map<String, Object> values = new LinkedHashMap<>();
        values.put("text", "Ada");
        values.put("empty_text", "");
        values.put("looks_like_a_template", "{{ 7*7 }} {% if true %}x{% endif %}");
        values.put("newline_at_end", "line\n");
        values.put("quotes_and_escapes", "it's \"q\" \\n \t tab é 你好 😀");
        values.put("int", 42);
        values.put("negative_long", -9_007_199_254_740_993L);
        values.put("double", 1.5);
        values.put("whole_double", 2.0);
        values.put("large_double", 1e20);
        values.put("small_double", 1e-7);
        values.put("nan", Double.NaN);
        values.put("decimal", new BigDecimal("1.10"));
        values.put("decimal_exponent", new BigDecimal("1E+3"));
        values.put("big_integer", new BigInteger("123456789012345678901234567890"));
        values.put("true_value", true);
        values.put("false_value", false);
        values.put("nothing", null);
        values.put("list", List.of("x", 1, 2.5, true));
        values.put("list_with_none", Arrays.asList("x", null));
        values.put("empty_list", List.of());
        values.put("dict", new LinkedHashMap<>(Map.of("k", "v")));
        values.put("nested_dict", Map.of("inner", Map.of("deep", "found")));
        values.put("file", new FileValue("f1", "document", "local_file", null, "u1", "a.pdf", ".pdf",
                "application/pdf", 12, "https://files.example/a.pdf"));
        values.put("files", List.of(new FileValue("f2", "image", "remote_url", "https://i.example/b.png", null,
                "b.png", ".png", "image/png", 3, null)));
        return values;
    }

    /** Each kind of value, at the top level and as a field of a dict, with fields of the names a dict has. */
    static Map<String, Object> variables() {
        Map<String, Object> values = everyKind();
        Map<String, Object> variables = new LinkedHashMap<>(values);
        Map<String, Object> holder = new HashMap<>(values);
        for (String name : List.of("items", "keys", "values", "size", "empty", "class", "length", "upper")) {
            holder.put(name, "field " + name);
        }
        variables.put("a", holder);
        variables.put("ending", "ends with a newline\n");
        return variables;
    }

    static List<String> templates() {
        List<String> templates = new ArrayList<>();
        for (String name : variables().keySet()) {
            templates.add("[{{ " + name + " }}]");
            templates.add("[{{ a." + name + " }}]");
        }
        templates.addAll(List.of("Hello {{ text }}!", "{{text}}", "{{   text   }}", "{{\ntext\n}}", "", "plain text",
                "\n", "a\n", "a\n\n", "{{ text }}\n", "{{ ending }}", "{{ ending }}\n", "{{ text }}\r\n",
                "{{ a.items }} {{ a.keys }} {{ a.values }} {{ a.size }} {{ a.empty }} {{ a.class }} {{ a.length }}",
                "{{ nested_dict.inner.deep }} {{ nested_dict.inner.missing }} {{ nested_dict.missing.deep }}",
                "{{ text.length }} {{ int.size }} {{ missing }} {{ missing.field }} {{ nothing.field }}",
                "{{ file.filename }} {{ files }} {{ list.size }}",
                "{\"a\": \"{{ text }}\", \"b\": {\"c\": {{ int }}}}", "a }} b {{ text }}", "{{ text }}}",
                "{ {{ text }} }", "{{{ text }}}", "{{ text }} %} #} -}}", "it's \"{{ text }}\" \\{{ text }}",
                "{{ a | upper }}", "{{ text|upper }}", "{{- text }}", "x {{- text }}", "{{ text -}} \n y",
                "{# c #}{{ text }}", "a {#- c -#} b", "{% if true %}{{ text }}{% endif %}", "{{ true }}",
                "{{ none }}", "{{ None }}", "{{ loop }}", "{{ range }}", "{{ a['text'] }}", "{{ 'x' }}",
                "{{ 7*7 }}", "{{ text ~ text }}", "{{ text }", "{{ text", "{% if %}", "{{ }}", "{{ a. }}",
                "{{ .text }}", "{{ a..text }}", "{{ 1text }}", "{{ a.1 }}", "héllo {{ text }} 你好",
                "{{ text }}{{ int }}{{ double }}{{ true_value }}{{ decimal }}"));
        return templates;
    }

    @Test
    void compiledTemplatesRenderWhatATemplateParsedEachTimeRenders() {
        Map<String, Object> variables = variables();
        for (String template : templates()) {
            CompiledTemplate compiled = renderer.compile(template);

            assertThat(outcome(() -> compiled.render(variables, LIMITS, StopSignal.NEVER)))
                    .as(template)
                    .isEqualTo(outcome(() -> renderer.render(template, variables, LIMITS, StopSignal.NEVER)));
            assertThat(outcome(() -> compiled.render(variables, LIMITS, STOPPED)))
                    .as(template + ", its run stopped")
                    .isEqualTo(outcome(() -> renderer.render(template, variables, LIMITS, STOPPED)));
        }
    }

    @Test
    void theDirectPathPrintsStringsNumbersAndBooleansAsJinjavaDoes() {
        Map<String, Object> variables = variables();
        int direct = 0;
        for (String template : templates()) {
            PlainTemplate plain = renderer.plain(template).orElse(null);
            String output = plain == null ? null : plain.render(variables, LIMITS, StopSignal.NEVER);
            if (output != null) {
                direct++;
                assertThat(output).as(template)
                        .isEqualTo(renderer.render(template, variables, LIMITS, StopSignal.NEVER));
            }
        }
        assertThat(direct).as("templates the direct path printed").isGreaterThan(40);
    }

    @Test
    void theDirectPathLeavesEveryOtherValueToJinjava() {
        Map<String, Object> variables = variables();
        for (String name : List.of("nothing", "list", "list_with_none", "empty_list", "dict", "nested_dict", "file",
                "files", "missing")) {
            PlainTemplate top = renderer.plain("[{{ " + name + " }}]").orElseThrow();
            PlainTemplate field = renderer.plain("[{{ a." + name + " }}]").orElseThrow();

            assertThat(top.render(variables, LIMITS, StopSignal.NEVER)).as(name).isNull();
            assertThat(field.render(variables, LIMITS, StopSignal.NEVER)).as("a." + name).isNull();
        }
        assertThat(renderer.plain("{{ text.length }}").orElseThrow().render(variables, LIMITS, StopSignal.NEVER))
                .as("a field of a string").isNull();
    }

    @Test
    void onlyTextAndPlainVariablesTakeTheDirectPath() {
        for (String plain : List.of("Hello {{ text }}!", "{{ a.b.c }}", "no variables", "", "{\"k\": {{ v }}}",
                "{{text}}", "a }} b {{ c }}")) {
            assertThat(renderer.plain(plain)).as(plain).isPresent();
        }
        for (String other : List.of("{{ a | upper }}", "{{- a }}", "{{ a -}}", "{# c #}", "x {# c #} {{ a }}",
                "{% if a %}{{ a }}{% endif %}", "{% raw %}{{ a }}{% endraw %}", "{{ a['b'] }}", "{{ a.b() }}",
                "{{ true }}", "{{ None }}", "{{ loop.index }}", "{{ a.not }}", "{{ a + 1 }}", "{{ a }", "{{ a",
                "{{ 'a' }}", "{{ a.1 }}", "{{ }}")) {
            assertThat(renderer.plain(other)).as(other).isEmpty();
        }
    }

    @Test
    void aTemplateThatDoesNotParseCompilesAndFailsEachRenderAsBefore() {
        CompiledTemplate broken = renderer.compile("ok\n{% if %}");

        assertThatThrownBy(() -> broken.render(Map.of(), LIMITS, StopSignal.NEVER))
                .isInstanceOf(TemplateException.class).hasMessageContaining("line 2")
                .hasMessage(messageOf(() -> renderer.render("ok\n{% if %}", Map.of(), LIMITS, StopSignal.NEVER)));
        assertThatThrownBy(() -> broken.render(Map.of(), LIMITS, StopSignal.NEVER))
                .as("and again").isInstanceOf(TemplateException.class).hasMessageContaining("line 2");
    }

    @Test
    void outputBeyondTheCapFailsOnBothPaths() {
        RenderLimits limits = new RenderLimits(1_000_000, 1000);
        Map<String, Object> variables = Map.of("a", Map.of("t", "y".repeat(400)), "x", "y".repeat(1000),
                "items", List.of("y".repeat(400), "y".repeat(400), "y".repeat(400)));

        for (String template : List.of("{{ a.t }}{{ a.t }}{{ a.t }}", "{{ x }}!", "{{ x }}\n\n", "{{ items }}",
                "{% for i in items %}{{ i }}{% endfor %}")) {
            assertThatThrownBy(() -> renderer.compile(template).render(variables, limits, StopSignal.NEVER))
                    .as(template).isInstanceOf(TemplateLimitException.class)
                    .hasMessage("Output length exceeds 1000 characters");
        }
        assertThat(renderer.compile("{{ x }}\n").render(variables, limits, StopSignal.NEVER)).hasSize(1000);
        assertThat(renderer.compile("{{ a.t }}{{ a.t }}").render(variables, limits, StopSignal.NEVER))
                .hasSize(800);
        String huge = "z".repeat(2_000_000);
        assertThatThrownBy(() -> renderer.compile("{{ x }}").render(Map.of("x", huge), limits, StopSignal.NEVER))
                .isInstanceOf(TemplateLimitException.class).hasMessage("Output length exceeds 1000 characters");
    }

    @Test
    void loopsBeyondTheLoopLimitFailOnTheCompiledTree() {
        RenderLimits limits = new RenderLimits(10_000, 400_000);
        CompiledTemplate loops = renderer.compile(JinjavaTemplateRendererTest.FOUR_NESTED_LOOPS);

        assertThatThrownBy(() -> loops.render(Map.of(), limits, StopSignal.NEVER))
                .isInstanceOf(TemplateLimitException.class)
                .hasMessage("The template ran more than 10000 loop iterations");
        assertThatThrownBy(() -> loops.render(Map.of(), limits, StopSignal.NEVER))
                .as("each render counts from zero, and fails again").isInstanceOf(TemplateLimitException.class);
        assertThat(renderer.compile("{% for i in range(10) %}{{ i }}{% endfor %}")
                .render(Map.of(), new RenderLimits(10, 400_000), StopSignal.NEVER)).isEqualTo("0123456789");
    }

    @Test
    void aStoppedRunEndsTheRenderOnBothPaths() {
        for (String template : List.of("Hello {{ text }}!", "{{ list }}", "{% for i in range(3) %}{{ i }}{% endfor %}",
                "plain text")) {
            assertThatThrownBy(() -> renderer.compile(template).render(variables(), LIMITS, STOPPED))
                    .as(template).isInstanceOf(RunStoppedException.class);
        }
        assertThat(renderer.compile("").render(Map.of(), LIMITS, STOPPED)).as("no node to stop at").isEmpty();
    }

    @Test
    void rendersOfOneCompiledTemplateOnManyThreadsDoNotMeet() throws Exception {
        CompiledTemplate tree = renderer.compile("{% set total = 0 %}{% for i in items %}{{ i }},{% endfor %}"
                + "{{ name|upper }}");
        CompiledTemplate plain = renderer.compile("{{ name }}:{{ a.n }}");
        ExecutorService threads = Executors.newFixedThreadPool(4);
        try {
            List<Future<?>> renders = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                int thread = t;
                renders.add(threads.submit(() -> {
                    for (int i = 0; i < 300; i++) {
                        String name = "n" + thread + "x" + i;
                        assertThat(tree.render(Map.of("items", List.of(thread, i), "name", name), LIMITS,
                                StopSignal.NEVER)).isEqualTo(thread + "," + i + "," + name.toUpperCase());
                        assertThat(plain.render(Map.of("name", name, "a", Map.of("n", i)), LIMITS,
                                StopSignal.NEVER)).isEqualTo(name + ":" + i);
                    }
                    return null;
                }));
            }
            for (Future<?> render : renders) {
                render.get();
            }
        } finally {
            threads.shutdownNow();
        }
    }

    /** What a render gave: its output, or its exception's kind and message. */
    private static String outcome(java.util.function.Supplier<String> render) {
        try {
            return "output: " + render.get();
        } catch (RuntimeException e) {
            return e.getClass().getSimpleName() + ": " + e.getMessage();
        }
    }

    private static String messageOf(Runnable render) {
        try {
            render.run();
            return null;
        } catch (RuntimeException e) {
            return e.getMessage();
        }
    }
}
