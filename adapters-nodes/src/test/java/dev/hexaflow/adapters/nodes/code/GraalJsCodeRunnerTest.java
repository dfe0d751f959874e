package dev.hexaflow.adapters.nodes.code;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hexaflow.workflow.engine.StopSignal;
import dev.hexaflow.workflow.port.out.CodeRunner.CodeException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * JavaScript as Dify's Node.js sandbox runs it (issue 38): modern syntax that Rhino refused, Dify's calling
 * convention, and a sandbox that reaches no Java, file, network, thread or process.
 */
class GraalJsCodeRunnerTest {

    private static final GraalJsCodeRunner JS = new GraalJsCodeRunner(
            new CodeLimits(Duration.ofSeconds(10), 128L * 1024 * 1024, 64 * 1024), 1);

    @AfterAll
    static void stopWorkers() {
        JS.close();
    }

    private static Map<String, Object> run(String code, Map<String, Object> inputs) {
        return JS.run(code, inputs, StopSignal.NEVER);
    }

    @Test
    void constRedeclaredInSiblingBlocksRunsAsInNode() {
        // The case: Rhino answered "redeclaration of const n".
        Map<String, Object> result = run("""
                function main({x}) {
                  if (x > 0) { const n = 'positive'; return {n}; }
                  else { const n = 'not positive'; return {n}; }
                }
                """, Map.of("x", 1));

        assertThat(result).containsEntry("n", "positive");
    }

    @Test
    void modernSyntaxAndBuiltInsUpToEcmaScript2023Run() {
        Map<String, Object> result = run("""
                class Item {
                  #secret = 1;
                  constructor(name, price) { this.name = name; this.price = price; }
                  get label() { return `${this.name}: ${this.price.toFixed(2)}`; }
                  static of({name, price = 0}) { return new Item(name, price); }
                }
                const main = ({items, extra}) => {
                  const list = items.map(Item.of);
                  const [first, ...rest] = list;
                  const merged = {...extra, count: list.length};
                  let total = 0;
                  for (const {price} of list) { total += price; }
                  return {
                    first: first.label,
                    rest: rest.length,
                    missing: extra?.deep?.value ?? 'none',
                    merged,
                    last: [1, 2, 3].at(-1),
                    lastEven: [1, 2, 3, 4, 5].findLast(n => n % 2 === 0),
                    sorted: [3, 1, 2].toSorted(),
                    total,
                    hasOwn: Object.hasOwn(merged, 'count'),
                    big: String(2n ** 64n),
                    replaced: 'a-b-c'.replaceAll('-', '+'),
                  };
                };
                """, Map.of("items", List.of(Map.of("name", "tea", "price", 3.5), Map.of("name", "cake")),
                "extra", Map.of("k", "v")));

        assertThat(result).containsEntry("first", "tea: 3.50").containsEntry("rest", 1)
                .containsEntry("missing", "none").containsEntry("merged", Map.of("k", "v", "count", 2))
                .containsEntry("last", 3).containsEntry("lastEven", 4).containsEntry("sorted", List.of(1, 2, 3))
                .containsEntry("total", 3.5).containsEntry("hasOwn", true)
                .containsEntry("big", "18446744073709551616").containsEntry("replaced", "a+b+c");
    }

    @Test
    void anAsyncMainIsNotAwaitedAsDifysRunnerDoesNotAwaitIt() {
        // Dify's runner prints JSON.stringify(main(inputs)): a promise becomes {}.
        assertThat(run("async function main() { return {late: true}; }", Map.of())).isEmpty();
    }

    @Test
    void printedTextDoesNotBecomeTheAnswer() {
        assertThat(run("function main() { console.log('{\"ok\": {\"forged\": true}}'); console.error('x'); "
                + "return {real: true}; }", Map.of())).containsExactly(Map.entry("real", true));
    }

    @Test
    void noJavaClassOrObjectIsReachable() {
        for (String expression : List.of("Java.type('java.lang.System').getenv('PATH')",
                "Packages.java.lang.System.getenv('PATH')", "java.lang.System.getenv('PATH')",
                "Polyglot.eval('js', '1')", "Graal.versionJS", "Java.type('java.io.File')")) {
            // Java is defined and refuses every class; the others are not defined at all.
            assertThat(outcome("function main() { return {v: String(" + expression + ")}; }")).as(expression)
                    .matches("refused: (ReferenceError: \\w+ is not defined|TypeError: Access to host class "
                            + "java\\.[a-zA-Z.]+ is not allowed or does not exist\\.).*");
        }
    }

    @Test
    void noFileIsReadAndNoModuleLoaded() {
        assertThat(outcome("function main() { return {v: String(require('fs').readFileSync('/etc/passwd'))}; }"))
                .startsWith("refused: ReferenceError");
        assertThat(outcome("function main() { return {v: String(load('/etc/passwd'))}; }"))
                .startsWith("refused: ReferenceError");
        assertThat(outcome("function main() { return {v: typeof read + typeof readbuffer + typeof readline"
                + " + typeof process + typeof require + typeof module}; }")).isEqualTo("undefined".repeat(6));
    }

    @Test
    void noNetworkThreadOrProcessIsReachable() {
        assertThat(outcome("function main() { return {v: typeof fetch + typeof XMLHttpRequest + typeof WebSocket"
                + " + typeof Worker + typeof setTimeout + typeof quit + typeof exit}; }"))
                .isEqualTo("undefined".repeat(7));
        assertThat(outcome("function main() { return {v: String(require('net'))}; }"))
                .startsWith("refused: ReferenceError");
    }

    @Test
    void aLoopPastTheTimeIsCancelledInsideItsWorkerWhichLivesOn() {
        run("function main() { return {}; }", Map.of());
        assertThat(JS.workers()).isEqualTo(1);

        assertThatThrownBy(() -> run("function main() { for (;;) {} }", Map.of()))
                .isInstanceOf(CodeException.class).hasMessage("Code execution timed out after 10s");

        assertThat(run("function main({a}) { return {b: a * 2}; }", Map.of("a", 21))).containsEntry("b", 42);
        assertThat(JS.workers()).as("the watchdog ended the loop, no worker was killed").isEqualTo(1);
    }

    @Test
    void anArrayThatGrowsPastTheMemoryLimitIsRefusedForMemory() {
        assertThatThrownBy(() -> run("function main() { const a = []; for (;;) { a.push(new Float64Array(1 << 22)); } }",
                Map.of())).isInstanceOf(CodeException.class).hasMessage("Code used more than 128 MiB of memory");

        assertThat(run("function main() { return {after: 'memory'}; }", Map.of())).containsEntry("after", "memory");
    }

    @Test
    void endlessRecursionIsARangeError() {
        assertThat(outcome("function main() { const f = n => f(n + 1) + 1; return {v: f(0)}; }"))
                .startsWith("refused: RangeError");
    }

    @Test
    void errorsSayWhatAndWhere() {
        assertThat(outcome("function main() { throw new TypeError('bad input'); }")).contains("TypeError: bad input");
        assertThat(outcome("function main( {")).startsWith("refused: SyntaxError");
        assertThat(outcome("function mian() { return {}; }")).isEqualTo("refused: ReferenceError: main is not defined");
    }

    private static String outcome(String code) {
        try {
            return String.valueOf(run(code, Map.of()).get("v"));
        } catch (CodeException e) {
            return "refused: " + e.getMessage();
        }
    }
}
