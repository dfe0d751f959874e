package dev.hexaflow.adapters.nodes.code;

import dev.hexaflow.adapters.nodes.fakes.StopSwitch;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.hexaflow.workflow.engine.StopSignal;
import dev.hexaflow.workflow.port.out.CodeRunner.CodeException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/** The JavaScript and Python runners: Dify's calling convention, their sandboxes and their limits. */
class CodeRunnersTest {

    private static final CodeLimits QUICK = new CodeLimits(Duration.ofSeconds(2), 512L * 1024 * 1024, 64 * 1024);
    /** JavaScript's memory is its worker's heap of live data: a loop holding 128 MiB meets it well within 2 s. */
    private static final GraalJsCodeRunner JS = new GraalJsCodeRunner(new CodeLimits(QUICK.timeout(), 128L * 1024 * 1024,
            QUICK.maxResultChars()));
    /** The same memory with time to spare: a loaded machine's slow allocation must end by memory, not by time. */
    private static final GraalJsCodeRunner JS_UNHURRIED = new GraalJsCodeRunner(new CodeLimits(Duration.ofSeconds(30),
            128L * 1024 * 1024, QUICK.maxResultChars()));
    private static final PythonWorkerCodeRunner PYTHON = new PythonWorkerCodeRunner(
            PythonWorkerCodeRunner.locate("python3"), QUICK);

    @AfterAll
    static void stopWorkers() {
        PYTHON.close();
        JS.close();
        JS_UNHURRIED.close();
    }

    private static boolean pythonInstalled() {
        return !PythonWorkerCodeRunner.locate("python3").equals("python3");
    }


    @Test
    void javascriptMainTakesOneObjectAsDifyCallsIt() {
        Map<String, Object> result = JS.run("function main({a, b}) { return {sum: a + b, list: [a, 'x'], "
                + "nested: {ok: true}}; }", Map.of("a", 2, "b", 3), StopSignal.NEVER);

        assertThat(result).containsEntry("sum", 5).containsEntry("list", List.of(2, "x"))
                .containsEntry("nested", Map.of("ok", true));
    }

    @Test
    void javascriptReachesNoJavaClassFileOrEnvironment() {
        for (String code : List.of(
                "function main() { return {v: java.lang.System.getenv('PATH')}; }",
                "function main() { return {v: String(Packages.java.io.File)}; }",
                "function main() { return {v: String(new java.io.File('/etc/passwd').exists())}; }",
                "function main() { return {v: typeof require + typeof process + typeof load}; }")) {
            Object outcome;
            try {
                outcome = JS.run(code, Map.of(), StopSignal.NEVER).get("v");
            } catch (CodeException e) {
                outcome = "refused: " + e.getMessage();
            }
            assertThat(String.valueOf(outcome)).as(code).doesNotContain("/usr/bin", "true", "class java");
        }
    }

    @Test
    void javascriptThatRunsTooLongOrUsesTooMuchMemoryOrIsStoppedIsEnded() {
        assertThatThrownBy(() -> JS.run("function main() { while (true) {} }", Map.of(), StopSignal.NEVER))
                .isInstanceOf(CodeException.class).hasMessageContaining("timed out");
        // Typed arrays: GraalJS interpreted builds a long string a character at a time, too slowly to meet 128 MiB.
        assertThatThrownBy(() -> JS_UNHURRIED.run("function main() { var a = []; while (true) { a.push(new Float64Array(1 << 22)); } }",
                Map.of(), StopSignal.NEVER)).isInstanceOf(CodeException.class).hasMessageContaining("memory");
        StopSwitch stop = new StopSwitch();
        stop.pull();
        assertThatThrownBy(() -> JS.run("function main() { while (true) {} }", Map.of(), stop))
                .hasMessageContaining("stopped");
    }

    @Test
    void javascriptErrorsAndNonObjectResultsAreClear() {
        assertThatThrownBy(() -> JS.run("function main() { throw new Error('boom'); }", Map.of(), StopSignal.NEVER))
                .hasMessageContaining("boom");
        assertThatThrownBy(() -> JS.run("function main( {", Map.of(), StopSignal.NEVER))
                .hasMessageContaining("main.js:1");
        assertThatThrownBy(() -> JS.run("function main() { return 3; }", Map.of(), StopSignal.NEVER))
                .hasMessageContaining("must return an object");
        assertThatThrownBy(() -> JS.run("var x = 1;", Map.of(), StopSignal.NEVER))
                .hasMessageContaining("main is not defined");
    }

    @Test
    void pythonMainTakesKeywordArgumentsAndWhatItPrintsIsNotItsAnswer() {
        assumeTrue(pythonInstalled(), "python3 is not installed here");
        String code = "def main(a, b):\n    print('noise')\n    return {'sum': a + b}\n";

        Map<String, Object> first = PYTHON.run(code, Map.of("a", 1, "b", 2.5), StopSignal.NEVER);
        Map<String, Object> second = PYTHON.run(code, Map.of("a", 1, "b", 1), StopSignal.NEVER);

        assertThat(first).containsOnly(Map.entry("sum", 3.5));
        assertThat(second).containsOnly(Map.entry("sum", 2));
    }

    @Test
    void pythonErrorsTimeoutsOversizedResultsMemoryAndStopsEndTheCallAndTheNextCallStillRuns() throws Exception {
        assumeTrue(pythonInstalled(), "python3 is not installed here");
        assertThatThrownBy(() -> PYTHON.run("def main():\n    raise ValueError('bad input')\n", Map.of(),
                StopSignal.NEVER)).isInstanceOf(CodeException.class).hasMessage("ValueError: bad input");
        assertThatThrownBy(() -> PYTHON.run("def main():\n    while True: pass\n", Map.of(), StopSignal.NEVER))
                .hasMessageContaining("timed out");
        assertThatThrownBy(() -> PYTHON.run("def main():\n    return {'x': 'y' * 200000}\n", Map.of(),
                StopSignal.NEVER)).hasMessageContaining("larger than");
        assertThatThrownBy(() -> PYTHON.run("def main():\n    return {'x': len('y' * (600 * 1024 * 1024))}\n",
                Map.of(), StopSignal.NEVER)).hasMessageContaining("MemoryError");
        assertThatThrownBy(() -> PYTHON.run("def main():\n    return [1]\n", Map.of(), StopSignal.NEVER))
                .hasMessageContaining("must return an object");
        StopSwitch stop = new StopSwitch();
        Thread puller = new Thread(() -> {
            sleep(200);
            stop.pull();
        });
        puller.start();
        long began = System.nanoTime();
        assertThatThrownBy(() -> PYTHON.run("import time\ndef main():\n    time.sleep(30)\n", Map.of(), stop))
                .hasMessageContaining("stopped");
        assertThat((System.nanoTime() - began) / 1e9).isLessThan(1.5);
        puller.join();

        assertThat(PYTHON.run("def main():\n    return {'ok': True}\n", Map.of(), StopSignal.NEVER))
                .containsEntry("ok", true);
    }

    @Test
    @SuppressWarnings("unchecked")
    void pythonCodeSeesNoServerEnvironment() {
        assumeTrue(pythonInstalled(), "python3 is not installed here");

        Map<String, Object> result = PYTHON.run("import os\ndef main():\n    return {'env': sorted(os.environ)}\n",
                Map.of(), StopSignal.NEVER);

        assertThat((List<Object>) result.get("env")).doesNotContain("HEXAFLOW_ADMIN_TOKEN", "HEXAFLOW_LLM_API_KEY",
                "JAVA_HOME", "MAVEN_OPTS");
    }

    @Test
    void aMissingPythonIsAClearErrorNotACrash() throws Exception {
        Path nowhere = Files.createTempDirectory("no-python").resolve("python3");
        try (PythonWorkerCodeRunner missing = new PythonWorkerCodeRunner(nowhere.toString(), QUICK)) {
            assertThatThrownBy(() -> missing.run("def main():\n    return {}\n", Map.of(), StopSignal.NEVER))
                    .isInstanceOf(CodeException.class).hasMessageContaining("python3 is not available");
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
