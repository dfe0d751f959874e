package dev.hexaflow.bench;

import dev.hexaflow.adapters.nodes.template.JinjavaTemplateRenderer;
import dev.hexaflow.workflow.engine.StopSignal;
import dev.hexaflow.workflow.port.out.TemplateRenderer.CompiledTemplate;
import dev.hexaflow.workflow.port.out.TemplateRenderer.RenderLimits;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What a template render costs (issue 40, point 4), in CPU time of the rendering thread: the template parsed and an
 * interpreter built on each render (before), Jinjava's tree parsed once and walked with an interpreter per render
 * (compiled), and the direct path of a text-and-variables template (direct). Each figure is the median of rounds
 * taken interleaved in one process, so that the ratios hold on a loaded machine; a second table renders each time on
 * a new thread, as the server renders on a new virtual thread (whose thread-locals are empty).
 *
 * <p>Not JMH: CPU time per thread is the measure. Run with the bench class path:
 * {@code java -cp ... dev.hexaflow.bench.TemplateBench [rounds] [renders per round]}.
 */
public final class TemplateBench {

    private static final ThreadMXBean CPU = ManagementFactory.getThreadMXBean();
    private static final com.sun.management.OperatingSystemMXBean PROCESS =
            (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    static {
        // one carrier for the virtual threads, so that its CPU time is theirs
        System.setProperty("jdk.virtualThreadScheduler.parallelism", "1");
        System.setProperty("jdk.virtualThreadScheduler.maxPoolSize", "1");
    }

    private static final Object VIRTUAL = virtualThreads();
    private static final Method UNSTARTED = unstarted();
    private static long carrierId = -1;
    private static final RenderLimits LIMITS = new RenderLimits(1_000_000, 400_000);
    /** bench/apps/four-nodes.yml's template-transform, and a template with a loop and filters. */
    private static final String GREETING = "Hello, {{ name }}!";
    private static final String LOOP = "{% for item in order.items %}{{ loop.index }}. {{ item|upper }}\n"
            + "{% endfor %}Total: {{ order.total|round(2) }}";

    private TemplateBench() {
    }

    public static void main(String[] args) throws Exception {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 9;
        int renders = args.length > 1 ? Integer.parseInt(args[1]) : 20_000;
        JinjavaTemplateRenderer renderer = new JinjavaTemplateRenderer();
        Method compile = JinjavaTemplateRenderer.class.getDeclaredMethod("compile", String.class, boolean.class);
        compile.setAccessible(true);
        Map<String, Object> greeting = Map.of("name", "Ada");
        Map<String, Object> order = Map.of("order", Map.of("items", List.of("tea", "cake", "jam"), "total", 11.257));
        Map<String, Runnable> cases = new LinkedHashMap<>();
        cases.put("greeting, before (parsed each render)",
                () -> renderer.render(GREETING, greeting, LIMITS, StopSignal.NEVER));
        CompiledTemplate greetingTree = (CompiledTemplate) compile.invoke(renderer, GREETING, false);
        cases.put("greeting, compiled tree", () -> greetingTree.render(greeting, LIMITS, StopSignal.NEVER));
        CompiledTemplate greetingDirect = renderer.compile(GREETING);
        cases.put("greeting, direct path", () -> greetingDirect.render(greeting, LIMITS, StopSignal.NEVER));
        cases.put("loop, before (parsed each render)", () -> renderer.render(LOOP, order, LIMITS, StopSignal.NEVER));
        CompiledTemplate loop = renderer.compile(LOOP);
        cases.put("loop, compiled tree", () -> loop.render(order, LIMITS, StopSignal.NEVER));

        System.out.printf("JDK %s, %d cores, %d rounds%n", Runtime.version(),
                Runtime.getRuntime().availableProcessors(), rounds);
        System.out.println("same thread: CPU ns per render, median of rounds of " + renders);
        report(cases, rounds, name -> perRender(cases.get(name), renders));
        System.out.println("a new " + (VIRTUAL != null ? "virtual" : "platform") + " thread per render, started and"
                + " joined one after another: CPU ns per render, less that of an empty thread, median of rounds of "
                + renders / 10);
        report(cases, rounds, name -> onNewThreads(cases.get(name), renders / 10)
                - onNewThreads(() -> { }, renders / 10));
    }

    private interface Measure {
        double nanos(String name) throws Exception;
    }

    /** Rounds interleaved across the cases (the first round warms up and is dropped); medians and ratios. */
    private static void report(Map<String, Runnable> cases, int rounds, Measure measure) throws Exception {
        Map<String, List<Double>> figures = new LinkedHashMap<>();
        for (int round = 0; round <= rounds; round++) {
            for (String name : cases.keySet()) {
                double nanos = measure.nanos(name);
                if (round > 0) {
                    figures.computeIfAbsent(name, n -> new ArrayList<>()).add(nanos);
                }
            }
        }
        Map<String, Double> medians = new LinkedHashMap<>();
        figures.forEach((name, values) -> medians.put(name, median(values)));
        medians.forEach((name, nanos) -> {
            String group = name.substring(0, name.indexOf(','));
            double before = medians.get(group + ", before (parsed each render)");
            List<Double> values = figures.get(name);
            System.out.printf("  %-40s %10.0f ns  (min %.0f, max %.0f)  %5.1fx faster than before%n", name, nanos,
                    values.stream().mapToDouble(Double::doubleValue).min().orElse(0),
                    values.stream().mapToDouble(Double::doubleValue).max().orElse(0), before / nanos);
        });
    }

    private static double perRender(Runnable render, int renders) {
        long started = CPU.getCurrentThreadCpuTime();
        for (int i = 0; i < renders; i++) {
            render.run();
        }
        return (double) (CPU.getCurrentThreadCpuTime() - started) / renders;
    }

    /**
     * Each render on a thread started for it, as the server's requests run. A virtual thread (JDK 21 and later) runs
     * on the scheduler's one carrier, whose CPU time is read; a platform thread (before) is timed inside itself.
     */
    private static double onNewThreads(Runnable render, int renders) throws Exception {
        AtomicLong inside = new AtomicLong();
        Runnable timed = VIRTUAL != null ? render : () -> {
            long started = CPU.getCurrentThreadCpuTime();
            render.run();
            inside.addAndGet(CPU.getCurrentThreadCpuTime() - started);
        };
        long carrier = VIRTUAL != null ? carrierCpuTime() : 0;
        for (int i = 0; i < renders; i++) {
            Thread thread = newThread(timed);
            thread.start();
            thread.join();
        }
        return (double) (VIRTUAL != null ? carrierCpuTime() - carrier : inside.get()) / renders;
    }

    /** The CPU time of the virtual threads' carrier: the scheduler is set to one above. */
    private static long carrierCpuTime() throws Exception {
        if (carrierId < 0) {
            newThread(() -> { }).start();
            Thread.sleep(50);
            for (long id : CPU.getAllThreadIds()) {
                java.lang.management.ThreadInfo info = CPU.getThreadInfo(id);
                if (info != null && info.getThreadName().startsWith("ForkJoinPool-1-worker-")) {
                    carrierId = id;
                }
            }
        }
        return CPU.getThreadCpuTime(carrierId);
    }

    private static Thread newThread(Runnable task) throws ReflectiveOperationException {
        return VIRTUAL != null ? (Thread) UNSTARTED.invoke(VIRTUAL, task) : new Thread(task);
    }

    /** {@code Thread.ofVirtual()} on JDK 21 and later, null before (this builds for 17). */
    private static Object virtualThreads() {
        try {
            return Thread.class.getMethod("ofVirtual").invoke(null);
        } catch (ReflectiveOperationException e) {
            return null;
        }
    }

    private static Method unstarted() {
        try {
            return Class.forName("java.lang.Thread$Builder").getMethod("unstarted", Runnable.class);
        } catch (ReflectiveOperationException e) {
            return null;
        }
    }

    private static double median(List<Double> values) {
        List<Double> sorted = new ArrayList<>(values);
        sorted.sort(Double::compare);
        return sorted.get(sorted.size() / 2);
    }
}
