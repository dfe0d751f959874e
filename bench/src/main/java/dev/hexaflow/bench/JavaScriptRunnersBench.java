package dev.hexaflow.bench;

import dev.hexaflow.adapters.nodes.code.CodeLimits;
import dev.hexaflow.adapters.nodes.code.GraalJsCodeRunner;
import dev.hexaflow.workflow.engine.StopSignal;
import dev.hexaflow.workflow.port.out.CodeRunner;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * What a JavaScript code node costs on each engine considered for issue 38: per-call latency of a small Dify-style
 * {@code main} (the cold first call on a new runner, which includes its worker's start; warm calls of the same code;
 * warm calls of code that differs each time), and throughput with two callers. Not JMH: a worker process's start
 * and a call across a pipe are milliseconds, far above what JMH's care is for.
 *
 * <p>Run with the adapters-nodes class path: {@code java -cp ... dev.hexaflow.bench.JavaScriptRunnersBench graaljs}
 * (or {@code node}). The Rhino figures in BENCHMARKS.md were taken with this harness before Rhino was removed.
 */
public final class JavaScriptRunnersBench {

    private static final CodeLimits LIMITS = new CodeLimits(Duration.ofSeconds(15), 1024L * 1024 * 1024,
            4 * 1024 * 1024);
    static final String CODE = """
            function main({items, name}) {
              const total = items.reduce((sum, item) => sum + item.price * item.qty, 0);
              const names = items.map(item => item.name.toUpperCase()).join(', ');
              return {result: `${name}: ${names} = ${total.toFixed(2)}`, count: items.length};
            }
            """;
    static final Map<String, Object> INPUTS = Map.of("name", "order", "items", List.of(
            Map.of("name", "tea", "price", 3.5, "qty", 2), Map.of("name", "cake", "price", 4.25, "qty", 1)));

    private JavaScriptRunnersBench() {
    }

    public static void main(String[] args) throws Exception {
        String engine = args.length > 0 ? args[0] : "graaljs";
        Supplier<CodeRunner> runners = switch (engine) {
            case "graaljs" -> () -> new GraalJsCodeRunner(LIMITS, 2);
            case "node" -> NodeRunner::new;
            default -> throw new IllegalArgumentException("graaljs or node");
        };
        for (int i = 0; i < 3; i++) {
            CodeRunner cold = runners.get();
            long began = System.nanoTime();
            cold.run(CODE, INPUTS, StopSignal.NEVER);
            System.out.printf("%s cold first call (worker start included): %.0f ms%n", engine, millisSince(began));
            long second = System.nanoTime();
            cold.run(CODE, INPUTS, StopSignal.NEVER);
            System.out.printf("%s second call: %.1f ms%n", engine, millisSince(second));
            ((AutoCloseable) cold).close();
        }
        CodeRunner runner = runners.get();
        latencies(engine + " warm, same code", runner, 3000, false);
        latencies(engine + " warm, new code each call", runner, 1000, true);
        throughput(engine, runner, Duration.ofSeconds(10));
        ((AutoCloseable) runner).close();
    }

    private static void latencies(String label, CodeRunner runner, int calls, boolean newCode) {
        for (int i = 0; i < calls; i++) {
            runner.run(CODE, INPUTS, StopSignal.NEVER);
        }
        double[] millis = new double[calls];
        for (int i = 0; i < calls; i++) {
            String code = newCode ? CODE + "// call " + i + "\n" : CODE;
            long began = System.nanoTime();
            runner.run(code, INPUTS, StopSignal.NEVER);
            millis[i] = millisSince(began);
        }
        Arrays.sort(millis);
        System.out.printf("%s: median %.2f ms, p99 %.2f ms (%d calls after %d warm-up)%n", label,
                millis[calls / 2], millis[calls * 99 / 100], calls, calls);
    }

    private static void throughput(String engine, CodeRunner runner, Duration length) throws InterruptedException {
        AtomicLong done = new AtomicLong();
        long end = System.nanoTime() + length.toNanos();
        List<Thread> callers = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            Thread caller = new Thread(() -> {
                while (System.nanoTime() < end) {
                    runner.run(CODE, INPUTS, StopSignal.NEVER);
                    done.incrementAndGet();
                }
            });
            caller.start();
            callers.add(caller);
        }
        for (Thread caller : callers) {
            caller.join();
        }
        System.out.printf("%s throughput, two callers: %.0f calls/s%n", engine, done.get() / (double) length.toSeconds());
    }

    private static double millisSince(long began) {
        return (System.nanoTime() - began) / 1e6;
    }

    /**
     * The Node.js alternative as it would be built: long-lived {@code node} processes reading one JSON call a line,
     * each call in a fresh {@code vm} context with the timeout, the heap bounded by {@code --max-old-space-size},
     * files, child processes and workers refused by Node 20's permission model (which has no switch for the
     * network). One process per caller here, as the JVM runners keep one worker per call in flight.
     */
    static final class NodeRunner implements CodeRunner, AutoCloseable {
        private static final String WORKER = """
                const vm = require('vm');
                const rl = require('readline').createInterface({input: process.stdin});
                rl.on('line', line => {
                  const call = JSON.parse(line);
                  let answer;
                  try {
                    const context = vm.createContext({});
                    vm.runInContext(call.code, context, {timeout: call.budget_ms, filename: 'main.js'});
                    context.__inputs = JSON.stringify(call.inputs);
                    answer = {ok: JSON.parse(vm.runInContext('JSON.stringify(main(JSON.parse(__inputs)))',
                        context, {timeout: call.budget_ms}))};
                  } catch (e) {
                    answer = {error: String(e)};
                  }
                  process.stdout.write(JSON.stringify(answer) + '\\n');
                });
                """;
        private final ThreadLocal<Process> processes = new ThreadLocal<>();
        private final List<Process> all = new java.util.concurrent.CopyOnWriteArrayList<>();
        private final Path script;

        NodeRunner() {
            try {
                script = Files.createTempFile("hexaflow-node-worker", ".js");
                Files.writeString(script, WORKER);
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        }

        @Override
        public String language() {
            return "javascript";
        }

        @Override
        public Map<String, Object> run(String code, Map<String, Object> inputs, StopSignal stop) {
            try {
                Process process = processes.get();
                if (process == null) {
                    process = new ProcessBuilder("node", "--max-old-space-size=" + LIMITS.memoryBytes() / (1024 * 1024),
                            "--experimental-permission", "--allow-fs-read=" + script, script.toString())
                            .redirectError(ProcessBuilder.Redirect.DISCARD).start();
                    processes.set(process);
                    all.add(process);
                }
                Writer in = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
                in.write(com.fasterxml.jackson.databind.json.JsonMapper.builder().build().writeValueAsString(
                        Map.of("code", code, "inputs", inputs, "budget_ms", LIMITS.timeout().toMillis())) + "\n");
                in.flush();
                String line = reader(process).readLine();
                @SuppressWarnings("unchecked")
                Map<String, Object> answer = new com.fasterxml.jackson.databind.ObjectMapper().readValue(line, Map.class);
                return answer;
            } catch (IOException e) {
                throw new CodeException("node: " + e.getMessage(), e);
            }
        }

        private final Map<Process, BufferedReader> readers = new java.util.concurrent.ConcurrentHashMap<>();

        private BufferedReader reader(Process process) {
            return readers.computeIfAbsent(process, p -> new BufferedReader(new InputStreamReader(p.getInputStream(),
                    StandardCharsets.UTF_8)));
        }

        @Override
        public void close() throws IOException {
            all.forEach(Process::destroyForcibly);
            Files.deleteIfExists(script);
        }
    }
}
