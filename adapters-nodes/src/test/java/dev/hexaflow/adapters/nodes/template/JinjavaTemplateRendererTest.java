package dev.hexaflow.adapters.nodes.template;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hexaflow.workflow.engine.EngineSettings;
import dev.hexaflow.workflow.engine.RunStoppedException;
import dev.hexaflow.workflow.engine.StopSignal;
import dev.hexaflow.workflow.port.out.TemplateRenderer.RenderLimits;
import dev.hexaflow.workflow.port.out.TemplateRenderer.TemplateException;
import dev.hexaflow.workflow.port.out.TemplateRenderer.TemplateLimitException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * The renderer on its own: values print as Jinja2 prints them, a value is printed once, and a render ends at its
 * limits and when its run stops.
 */
class JinjavaTemplateRendererTest {

    static final RenderLimits LIMITS = new RenderLimits(1_000_000, 400_000);
    static final String FOUR_NESTED_LOOPS = "{% for a in range(1000) %}{% for b in range(1000) %}"
            + "{% for c in range(1000) %}{% for d in range(1000) %}x{% endfor %}{% endfor %}{% endfor %}{% endfor %}";

    final JinjavaTemplateRenderer renderer = new JinjavaTemplateRenderer();

    private String render(String template, Map<String, Object> variables) {
        return renderer.render(template, variables, LIMITS, StopSignal.NEVER);
    }

    @Test
    void aValueThatLooksLikeATemplateIsPrintedAsText() {
        assertThat(render("Hello {{ x }}!", Map.of("x", "{{ 7*7 }}"))).isEqualTo("Hello {{ 7*7 }}!");
        assertThat(render("{{ x }}", Map.of("x", "{% for i in range(3) %}{{ i }}{% endfor %}")))
                .isEqualTo("{% for i in range(3) %}{{ i }}{% endfor %}");
        assertThat(render("{{ items }}", Map.of("items", List.of("{{ 7*7 }}")))).isEqualTo("['{{ 7*7 }}']");
    }

    @Test
    void aHiddenValueDoesNotLeakThroughAnInput() {
        String template = "{% if false %}{{ token }}{% endif %}Hello {{ x }}!";

        String output = render(template, Map.of("token", "s3cret", "x", "{{ token }}"));

        assertThat(output).isEqualTo("Hello {{ token }}!").doesNotContain("s3cret");
    }

    @Test
    void striptagsRemovesTagsAsJinja2DoesWithoutRenderingTheValue() {
        assertThat(render("{{ x|striptags }}", Map.of("x", "<b>{{ 7*7 }}</b>  and <!-- c --> &lt;i&gt; ")))
                .isEqualTo("{{ 7*7 }} and <i>");
    }

    @Test
    void theRenderFilterAndIncludesAreRefused() {
        assertThatThrownBy(() -> render("{{ x|render }}", Map.of("x", "{{ 7*7 }}")))
                .isInstanceOf(TemplateException.class);
        assertThatThrownBy(() -> render("{% include x %}", Map.of("x", "jinjava/jinjava.properties")))
                .isInstanceOf(TemplateException.class);
    }

    @Test
    void loopsBeyondTheLoopLimitFailNamingTheLimit() {
        RenderLimits limits = new RenderLimits(10_000, 400_000);

        assertThatThrownBy(() -> renderer.render(FOUR_NESTED_LOOPS, Map.of(), limits, StopSignal.NEVER))
                .isInstanceOf(TemplateLimitException.class)
                .hasMessage("The template ran more than 10000 loop iterations");
    }

    @Test
    void loopsWithEmptyBodiesCountToo() {
        RenderLimits limits = new RenderLimits(10_000, 400_000);
        String empty = "{% for a in range(1000) %}{% for b in range(1000) %}{% endfor %}{% endfor %}";

        assertThatThrownBy(() -> renderer.render(empty, Map.of(), limits, StopSignal.NEVER))
                .isInstanceOf(TemplateLimitException.class)
                .hasMessageContaining("10000 loop iterations");
    }

    @Test
    void loopsWithinTheLimitRenderAsBefore() {
        RenderLimits limits = new RenderLimits(3, 400_000);

        assertThat(renderer.render("{% for k, v in d.items() %}{{ loop.index }}/{{ loop.length }}:{{ k }}={{ v }} "
                        + "{% endfor %}{% for k in d %}{{ k }}{% endfor %}",
                Map.of("d", new java.util.TreeMap<>(Map.of("a", 1))), limits, StopSignal.NEVER))
                .isEqualTo("1/1:a=1 a");
    }

    @Test
    void outputBeyondTheCapFailsNamingTheCap() {
        RenderLimits limits = new RenderLimits(1_000_000, 1000);
        String tooLong = "{% for i in range(300) %}{{ i }}-------{% endfor %}";

        assertThatThrownBy(() -> renderer.render(tooLong, Map.of(),
                limits, StopSignal.NEVER))
                .isInstanceOf(TemplateLimitException.class)
                .hasMessage("Output length exceeds 1000 characters");
        assertThatThrownBy(() -> renderer.render("{% set s = 'ab' %}{% for i in range(30) %}{% set s = s ~ s %}"
                + "{% endfor %}{{ s|length }}", Map.of(), limits, StopSignal.NEVER))
                .isInstanceOf(TemplateLimitException.class)
                .hasMessage("Output length exceeds 1000 characters");
        assertThat(renderer.render("{{ x }}\n", Map.of("x", "y".repeat(1000)), limits, StopSignal.NEVER))
                .hasSize(1000);
    }

    @Test
    void aStopEndsARunawayRenderWithinASecond() throws Exception {
        AtomicBoolean stopped = new AtomicBoolean();
        StopSignal stop = new StopSignal() {
            @Override
            public boolean isStopped() {
                return stopped.get();
            }

            @Override
            public AutoCloseable onStop(Runnable action) {
                return () -> { };
            }
        };
        RenderLimits unbounded = new RenderLimits(Integer.MAX_VALUE, 400_000);
        String emptyBodies = "{% for a in range(1000) %}{% for b in range(1000) %}{% for c in range(1000) %}"
                + "{% for d in range(1000) %}{% endfor %}{% endfor %}{% endfor %}{% endfor %}";
        CompletableFuture<Throwable> ended = CompletableFuture.supplyAsync(() -> {
            try {
                renderer.render(emptyBodies, Map.of(), unbounded, stop);
                return null;
            } catch (Throwable e) {
                return e;
            }
        });
        Thread.sleep(500);
        assertThat(ended).isNotDone();

        long asked = System.nanoTime();
        stopped.set(true);
        Throwable thrown = ended.get(1, TimeUnit.SECONDS);

        assertThat(thrown).isInstanceOf(RunStoppedException.class);
        assertThat((System.nanoTime() - asked) / 1_000_000).isLessThan(1000);
    }

    @Test
    void aRenderAfterABrokenOneIsNotAffected() {
        RenderLimits limits = new RenderLimits(10, 400_000);
        assertThatThrownBy(() -> renderer.render(FOUR_NESTED_LOOPS, Map.of(), limits, StopSignal.NEVER))
                .isInstanceOf(TemplateLimitException.class);

        assertThat(renderer.render("{% for i in range(10) %}{{ i }}{% endfor %}", Map.of(), limits,
                StopSignal.NEVER)).isEqualTo("0123456789");
        assertThatThrownBy(() -> renderer.render(FOUR_NESTED_LOOPS, Map.of(), limits, StopSignal.NEVER))
                .as("the limit holds on a reused context too").isInstanceOf(TemplateLimitException.class);
    }

    /** What a template-transform node may render by default: Dify's cap of 400 000 characters. */
    static final RenderLimits TEMPLATE_TRANSFORM = EngineSettings.DEFAULTS.templateLimits();

    @Test
    void valuesPrintAsJinja2PrintsThemAndLoopsAndFiltersWork() {
        String template = "{{ a.items }}|{{ a.items|length }}|{% for i in a.items %}{{ loop.index }}:{{ i }} "
                + "{% endfor %}|{{ a.name|upper }}\n";

        String output = renderer.render(template, Map.of("a", Map.of("items", List.of("x", "y"), "name", "ada")),
                TEMPLATE_TRANSFORM, StopSignal.NEVER);

        assertThat(output).isEqualTo("['x', 'y']|2|1:x 2:y |ADA");
    }

    @Test
    void aBrokenTemplateFailsNamingTheLine() {
        assertThatThrownBy(() -> renderer.render("ok\n{% if %}", Map.of("a", Map.of()), TEMPLATE_TRANSFORM,
                StopSignal.NEVER)).isInstanceOf(TemplateException.class).hasMessageContaining("line 2");
    }

    @Test
    void outputOverTheTemplateTransformCapFails() {
        String big = "x".repeat(150_000);

        assertThatThrownBy(() -> renderer.render("{{ a.t }}{{ a.t }}{{ a.t }}", Map.of("a", Map.of("t", big)),
                TEMPLATE_TRANSFORM, StopSignal.NEVER)).isInstanceOf(TemplateLimitException.class)
                .hasMessage("Output length exceeds 400000 characters");
    }
}
