package dev.hexaflow.adapters.nodes.code;

import dev.hexaflow.adapters.nodes.fakes.StopSwitch;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.hexaflow.workflow.engine.StopSignal;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Python code runs in real processes that must not serve two calls, read the server's secrets, outlive their
 * call, or start processes without bound. Each test attacks the runner as a workflow author could.
 */
class PythonCodeIsolationTest {

    private static final CodeLimits QUICK = new CodeLimits(Duration.ofSeconds(2), 512L * 1024 * 1024, 64 * 1024);
    private static final String PYTHON = PythonWorkerCodeRunner.locate("python3");
    private static PythonWorkerCodeRunner runner;

    @BeforeAll
    static void startRunner() {
        assumeTrue(!PYTHON.equals("python3"), "python3 is not installed here");
        runner = new PythonWorkerCodeRunner(PYTHON, QUICK);
    }

    @AfterAll
    static void stopRunner() {
        if (runner != null) {
            runner.close();
        }
    }

    @Test
    void aModulePatchedAndAFileLeftByOneCallAreNotSeenByTheNextCall() {
        String attacker = """
                import builtins, json
                def main():
                    json.loads = lambda text: {'answer': 'from the attacker'}
                    builtins.left_behind = 'by the attacker'
                    with open('/tmp/left-behind.txt', 'w') as f:
                        f.write('by the attacker')
                    return {}
                """;
        String victim = """
                import builtins, json, os
                def main(text):
                    return {'parsed': json.loads(text), 'global': getattr(builtins, 'left_behind', None),
                            'file': os.path.exists('/tmp/left-behind.txt')}
                """;

        runner.run(attacker, Map.of(), StopSignal.NEVER);
        Map<String, Object> next = runner.run(victim, Map.of("text", "{\"answer\": 42}"), StopSignal.NEVER);

        assertThat(next).containsEntry("parsed", Map.of("answer", 42)).containsEntry("global", null)
                .containsEntry("file", false);
    }

    @Test
    void anAppThatPatchesJsonLoadsNeitherAnswersForNorReadsTheInputsOfAnotherApp() {
        String attacker = """
                import json, os
                def main():
                    stolen = open('/tmp/stolen.txt').read() if os.path.exists('/tmp/stolen.txt') else ''
                    original = json.loads
                    def spy(text, *args, **kwargs):
                        with open('/tmp/stolen.txt', 'a') as f:
                            f.write(str(text))
                        return {'v': 'from the attacker'}
                    json.loads = spy
                    return {'r': stolen}
                """;
        String victim = """
                import json
                def main():
                    return {'r': json.loads('{"v": "private to the victim"}')['v']}
                """;

        Map<String, Object> first = runner.run(attacker, Map.of(), StopSignal.NEVER);
        Map<String, Object> victims = runner.run(victim, Map.of(), StopSignal.NEVER);
        Map<String, Object> second = runner.run(attacker, Map.of(), StopSignal.NEVER);

        assertThat(first).containsKey("r");
        assertThat(victims).containsEntry("r", "private to the victim");
        assertThat(second).containsEntry("r", "");
    }

    /** Run in a child JVM whose environment holds a secret, as the server's does. */
    public static final class SecretReader {
        public static void main(String[] args) {
            String code = """
                    import os
                    def main():
                        seen, read = [], 0
                        for pid in [str(os.getppid())] + [p for p in os.listdir('/proc') if p.isdigit()]:
                            for name in ('environ', 'cmdline'):
                                try:
                                    with open('/proc/%s/%s' % (pid, name), 'rb') as f:
                                        text = f.read().decode('latin-1')
                                    read += 1
                                    seen += [entry for entry in text.split('\\0') if 'HEXAFLOW' in entry]
                                except OSError:
                                    pass
                        seen.append(repr(dict(os.environ)))
                        return {'seen': ' '.join(seen), 'read': read}
                    """;
            try (PythonWorkerCodeRunner reader = new PythonWorkerCodeRunner(PYTHON, QUICK)) {
                Map<String, Object> result = reader.run(code, Map.of(), StopSignal.NEVER);
                System.out.println(result.get("seen"));
                System.out.println("read " + result.get("read") + " files of /proc");
            }
            System.exit(0);
        }
    }

    @Test
    void codeCannotReadTheServersEnvironmentThroughProc() throws Exception {
        String secret = "secret-" + UUID.randomUUID();
        ProcessBuilder child = new ProcessBuilder(ProcessHandle.current().info().command().orElse("java"),
                "-cp", System.getProperty("java.class.path"), SecretReader.class.getName()).redirectErrorStream(true);
        child.environment().put("HEXAFLOW_ADMIN_TOKEN", secret);

        Process process = child.start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();

        assertThat(output).as("the child ran its code").contains("read ").contains("PYTHONIOENCODING");
        assertThat(output).doesNotContain(secret);
    }

    @Test
    void processesStartedByTheCodeEndWithItsTimeout() throws Exception {
        String marker = "30." + ThreadLocalRandom.current().nextInt(100_000, 999_999);

        CompletableFuture<Map<String, Object>> call = CompletableFuture.supplyAsync(
                () -> runner.run(SPAWNER, Map.of("marker", marker), StopSignal.NEVER));
        assertThat(within(Duration.ofSeconds(2), () -> processesWith(marker).size() >= 3))
                .as("the code started its sleeps").isTrue();

        assertThatThrownBy(call::join).hasMessageContaining("timed out");
        assertThat(within(Duration.ofSeconds(1), () -> processesWith(marker).isEmpty()))
                .as("left alive: " + processesWith(marker)).isTrue();
    }

    @Test
    void processesStartedByTheCodeEndWhenTheRunIsStopped() throws Exception {
        String marker = "30." + ThreadLocalRandom.current().nextInt(100_000, 999_999);
        StopSwitch stop = new StopSwitch();

        CompletableFuture<Map<String, Object>> call = CompletableFuture.supplyAsync(
                () -> runner.run(SPAWNER, Map.of("marker", marker), stop));
        assertThat(within(Duration.ofSeconds(2), () -> processesWith(marker).size() >= 3))
                .as("the code started its sleeps").isTrue();
        stop.pull();

        assertThatThrownBy(() -> call.get(1, TimeUnit.SECONDS)).hasMessageContaining("stopped");
        assertThat(within(Duration.ofSeconds(1), () -> processesWith(marker).isEmpty()))
                .as("left alive: " + processesWith(marker)).isTrue();
    }

    @Test
    void aCallCannotStartMoreProcessesThanItsLimit() {
        String code = """
                import subprocess
                def main():
                    started = 0
                    try:
                        for _ in range(100):
                            subprocess.Popen(['sleep', '2'])
                            started += 1
                    except OSError:
                        pass
                    return {'started': started}
                """;

        Map<String, Object> result = runner.run(code, Map.of(), StopSignal.NEVER);

        assertThat(((Number) result.get("started")).intValue()).isLessThan(PythonWorkerCodeRunner.DEFAULT_MAX_PROCESSES);
    }

    @Test
    void aForkBombIsBoundedAndLeavesNothingBehind() throws Exception {
        runner.run("def main():\n    return {}\n", Map.of(), StopSignal.NEVER);
        long baseline = ProcessHandle.current().descendants().count();
        String bomb = """
                import os
                def main():
                    while True:
                        try:
                            os.fork()
                        except OSError:
                            pass
                """;
        AtomicLong peak = new AtomicLong();
        AtomicBoolean running = new AtomicBoolean(true);
        Thread sampler = new Thread(() -> {
            while (running.get()) {
                peak.accumulateAndGet(ProcessHandle.current().descendants().count(), Math::max);
                sleep(20);
            }
        });
        sampler.start();

        assertThatThrownBy(() -> runner.run(bomb, Map.of(), StopSignal.NEVER)).hasMessageContaining("timed out");
        running.set(false);
        sampler.join();

        assertThat(peak.get()).as("processes at the peak of the bomb")
                .isLessThanOrEqualTo(baseline + PythonWorkerCodeRunner.DEFAULT_MAX_PROCESSES + 2);
        // The bomb's processes are killed at once but reaped when the system gets to it: on a busy CI run two seconds
        // were once not enough. What counts is that none is left behind.
        assertThat(within(Duration.ofSeconds(10), () -> ProcessHandle.current().descendants().count() <= baseline))
                .as("processes back to the baseline of " + baseline).isTrue();
        assertThat(runner.run("def main():\n    return {'ok': True}\n", Map.of(), StopSignal.NEVER))
                .containsEntry("ok", true);
    }

    @Test
    void callsRunInTheirOwnNamespacesWhereTheKernelAllowsThem() throws Exception {
        Process probe;
        try {
            probe = new ProcessBuilder("unshare", "--user", "--map-root-user", "--pid", "--fork", "--mount-proc",
                    "true").redirectErrorStream(true).start();
        } catch (IOException e) {
            assumeTrue(false, "unshare is not installed here");
            return;
        }
        probe.getInputStream().readAllBytes();
        assumeTrue(probe.waitFor() == 0, "this kernel refuses new namespaces");

        assertThat(runner.isolation()).startsWith("namespaces");
        assertThat(runner.run("import os\ndef main():\n    return {'pid': os.getpid(), 'seen': os.listdir('/proc')}\n",
                Map.of(), StopSignal.NEVER)).containsEntry("pid", 1);
    }

    private static final String SPAWNER = """
            import os, subprocess, time
            def main(marker):
                subprocess.Popen(['sleep', marker])
                subprocess.Popen(['setsid', 'sleep', marker])
                if os.fork() == 0:
                    os.setsid()
                    if os.fork() == 0:
                        os.execvp('sleep', ['sleep', marker])
                    os._exit(0)
                while True:
                    time.sleep(1)
            """;

    /** The pids of this machine's processes whose command line holds {@code marker}. */
    private static List<String> processesWith(String marker) {
        List<String> found = new ArrayList<>();
        try (Stream<Path> entries = Files.list(Path.of("/proc"))) {
            for (Path entry : entries.filter(p -> p.getFileName().toString().matches("\\d+")).toList()) {
                try {
                    String command = new String(Files.readAllBytes(entry.resolve("cmdline")), StandardCharsets.UTF_8);
                    if (command.contains(marker)) {
                        found.add(entry.getFileName() + ": " + command.replace('\0', ' ').strip());
                    }
                } catch (IOException e) {
                    // The process ended while it was listed.
                }
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot list /proc", e);
        }
        return found;
    }

    private static boolean within(Duration time, BooleanSupplier condition) {
        long end = System.nanoTime() + time.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > end) {
                return false;
            }
            sleep(20);
        }
        return true;
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

}
