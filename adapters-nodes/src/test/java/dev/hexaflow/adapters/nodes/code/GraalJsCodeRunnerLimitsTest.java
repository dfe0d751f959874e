package dev.hexaflow.adapters.nodes.code;

import dev.hexaflow.adapters.nodes.fakes.StopSwitch;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hexaflow.workflow.engine.StopSignal;
import dev.hexaflow.workflow.port.out.CodeRunner.CodeException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * JavaScript's built-ins (fill, sort, repeat, string building) run in Java, out of the instruction observer's
 * reach: whatever the code does, a call ends by its timeout plus a second, a stop ends it within a second, and
 * the memory it may hold is bounded without refusing code that only makes garbage.
 */
class GraalJsCodeRunnerLimitsTest {

    private static final long MIB = 1024L * 1024;
    private static final GraalJsCodeRunner THREE_SECONDS = new GraalJsCodeRunner(
            new CodeLimits(Duration.ofSeconds(3), 256 * MIB, 64 * 1024));
    /** Memory cases get time to spare, so that only the memory limit can end them. */
    private static final GraalJsCodeRunner TEN_SECONDS = new GraalJsCodeRunner(
            new CodeLimits(Duration.ofSeconds(10), 256 * MIB, 64 * 1024));
    private static final GraalJsCodeRunner DEFAULTS = new GraalJsCodeRunner(
            new CodeLimits(Duration.ofSeconds(8), CodeLimits.DEFAULTS.memoryBytes(), 64 * 1024));

    @AfterAll
    static void stopWorkers() {
        THREE_SECONDS.close();
        TEN_SECONDS.close();
        DEFAULTS.close();
    }


    private static double secondsSince(long began) {
        return (System.nanoTime() - began) / 1e9;
    }

    @Test
    void aHugeArrayFilledByTheBuiltInEndsWithinItsTimeoutAndLeavesThisHeapAlone() {
        // A worker up first: its start (GraalJS loading, seconds on a loaded machine) is no part of a call's time.
        THREE_SECONDS.run("function main() { return {}; }", Map.of(), StopSignal.NEVER);
        long heapBefore = usedHeap();
        long began = System.nanoTime();

        assertThatThrownBy(() -> THREE_SECONDS.run("function main() { var a = new Array(2**30); a.fill(1); "
                + "return {n: a.length}; }", Map.of(), StopSignal.NEVER))
                .isInstanceOf(CodeException.class).hasMessageMatching(".*(timed out|memory).*");

        // Three seconds and the kill; the bound leaves room for a machine busy with other test JVMs (a CI run beside
        // two builds took 6.9 s), while a fill nothing stopped would run for minutes.
        assertThat(secondsSince(began)).as("the three seconds and the kill, on a loaded machine").isLessThan(9.0);
        assertThat(usedHeap() - heapBefore).as("bytes this JVM holds after the call").isLessThan(64 * MIB);
    }

    @Test
    void aStopEndsABuiltInFillWithinASecond() throws InterruptedException {
        StopSwitch stop = new StopSwitch();
        Thread puller = new Thread(() -> {
            sleep(500);
            stop.pull();
        });
        puller.start();
        long began = System.nanoTime();

        assertThatThrownBy(() -> DEFAULTS.run("function main() { new Array(2**25).fill(1); return {}; }", Map.of(),
                stop)).isInstanceOf(CodeException.class).hasMessage("the run was stopped");

        assertThat(secondsSince(began)).as("seconds from the call, the stop came at 0.5").isLessThan(1.5);
        puller.join();
    }

    @Test
    void fillAndSortOfSixteenMillionItemsEndWithinTheTimeout() {
        // A worker up first: the time counts from when a worker is up, and a worker JVM's launch on a loaded machine
        // took more than a second of the bound below on CI.
        assertThat(THREE_SECONDS.run("function main() { return {ready: true}; }", Map.of(), StopSignal.NEVER))
                .containsEntry("ready", true);
        long began = System.nanoTime();

        assertThatThrownBy(() -> THREE_SECONDS.run("function main() { var a = new Array(2**24).fill(1).map("
                + "function (x, i) { return (i * 7919) % 1000; }); a.sort(function (x, y) { return x - y; }); "
                + "return {n: a.length}; }", Map.of(), StopSignal.NEVER))
                .isInstanceOf(CodeException.class).hasMessageMatching(".*(timed out|memory).*");

        // Three seconds and the kill; the bound leaves room for a machine busy with other test JVMs (a CI run beside
        // two builds took 6.9 s), while a fill nothing stopped would run for minutes.
        assertThat(secondsSince(began)).as("the three seconds and the kill, on a loaded machine").isLessThan(9.0);
    }

    @Test
    void aHugeRepeatIsRefusedForMemory() {
        assertThatThrownBy(() -> TEN_SECONDS.run("function main() { return {s: 'x'.repeat(2**29).length}; }",
                Map.of(), StopSignal.NEVER)).isInstanceOf(CodeException.class)
                .hasMessage("Code used more than 256 MiB of memory");
    }

    @Test
    void aStringThatDoublesUntilItDoesNotFitIsRefusedForMemory() {
        assertThatThrownBy(() -> TEN_SECONDS.run("function main() { var s = 'x'; var n = 0; "
                + "while (true) { s = (s + s).toLowerCase(); n++; } }", Map.of(), StopSignal.NEVER))
                // GraalJS interpreted lowers a string a character at a time: the time may end it before the heap.
                .isInstanceOf(CodeException.class)
                .hasMessageMatching("Code used more than 256 MiB of memory|Code execution timed out after 10s");
    }

    @Test
    void codeThatOnlyMakesGarbageForFourSecondsIsNotRefused() {
        Map<String, Object> result = DEFAULTS.run("function main() { var end = Date.now() + 4000; var n = 0; "
                + "while (Date.now() < end) { var o = {a: [n, n + 1, n + 2], s: 'item ' + n}; n += o.a.length; } "
                + "return {n: n}; }", Map.of(), StopSignal.NEVER);

        assertThat(((Number) result.get("n")).longValue()).isPositive();
    }

    @Test
    void aWorkerEndedByALimitIsReplacedAndTheNextCallSucceeds() {
        assertThatThrownBy(() -> TEN_SECONDS.run("function main() { return {s: 'x'.repeat(2**29).length}; }",
                Map.of(), StopSignal.NEVER)).hasMessageContaining("memory");

        assertThat(TEN_SECONDS.run("function main({a}) { return {b: a + 1}; }", Map.of("a", 1), StopSignal.NEVER))
                .containsEntry("b", 2);
    }

    @Test
    void aCallSeesNothingThatAnEarlierCallLeft() {
        THREE_SECONDS.run("function main() { Array.prototype.leak = 'a'; globalThis.kept = 'b'; "
                + "JSON.parse = function () { return {stolen: true}; }; return {}; }", Map.of(), StopSignal.NEVER);

        Map<String, Object> later = THREE_SECONDS.run("function main() { return {leak: typeof [].leak, "
                + "kept: typeof kept, parsed: JSON.parse('{\"x\": 1}').x}; }", Map.of(), StopSignal.NEVER);

        assertThat(later).containsEntry("leak", "undefined").containsEntry("kept", "undefined")
                .containsEntry("parsed", 1);
    }

    @Test
    void aWorkersStartDoesNotCountTowardTheFirstCallsTime() {
        // A JVM with GraalJS takes longer than two seconds to start on any machine: the call would have timed out.
        // (Two seconds, not less: a first call of new code, interpreted, took over 300 ms under load.)
        try (GraalJsCodeRunner cold = new GraalJsCodeRunner(new CodeLimits(Duration.ofSeconds(2), 64 * MIB, 4096), 1)) {
            Map<String, Object> answer = cold.run("function main() { return {ok: 1}; }", Map.of(), StopSignal.NEVER);

            assertThat(answer).containsEntry("ok", 1);
            assertThatThrownBy(() -> cold.run("function main() { while (true) {} }", Map.of(), StopSignal.NEVER))
                    .isInstanceOf(CodeException.class).hasMessageContaining("timed out");
        }
    }

    @Test
    void callsBeyondTheWorkerBoundWaitAndTheWaitCountsTowardTheirTimeout() throws Exception {
        try (GraalJsCodeRunner oneWorker = new GraalJsCodeRunner(new CodeLimits(Duration.ofSeconds(2), 64 * MIB, 4096), 1)) {
            // The worker's JVM started first: its start does not count toward a call's time.
            oneWorker.run("function main() { return {}; }", Map.of(), StopSignal.NEVER);
            long began = System.nanoTime();
            List<CompletableFuture<String>> calls = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                calls.add(CompletableFuture.supplyAsync(() -> {
                    try {
                        return String.valueOf(oneWorker.run("function main() { while (true) {} }", Map.of(),
                                StopSignal.NEVER));
                    } catch (CodeException e) {
                        return e.getMessage();
                    }
                }));
            }

            for (CompletableFuture<String> call : calls) {
                assertThat(call.get(10, TimeUnit.SECONDS)).isEqualTo("Code execution timed out after 2s");
            }
            assertThat(secondsSince(began)).as("three calls of two seconds on one worker").isLessThan(3.0);
            assertThat(oneWorker.workers()).isLessThanOrEqualTo(1);
        }
    }

    @Test
    void closingTheRunnerEndsItsWorkers() throws Exception {
        Set<ProcessHandle> before = childProcesses();
        GraalJsCodeRunner runner = new GraalJsCodeRunner(new CodeLimits(Duration.ofSeconds(2), 64 * MIB, 4096), 2);
        runner.run("function main() { return {}; }", Map.of(), StopSignal.NEVER);
        Set<ProcessHandle> started = childProcesses();
        started.removeAll(before);
        assertThat(started).hasSize(1);

        runner.close();

        for (ProcessHandle worker : started) {
            assertThat(worker.onExit().get(2, TimeUnit.SECONDS).isAlive()).isFalse();
        }
        assertThatThrownBy(() -> runner.run("function main() { return {}; }", Map.of(), StopSignal.NEVER))
                .hasMessageContaining("closed");
    }

    private static Set<ProcessHandle> childProcesses() {
        return ProcessHandle.current().children().filter(ProcessHandle::isAlive)
                .collect(Collectors.toCollection(HashSet::new));
    }

    private static long usedHeap() {
        Runtime runtime = Runtime.getRuntime();
        System.gc();
        return runtime.totalMemory() - runtime.freeMemory();
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
