package dev.hexaflow.adapters.nodes.code;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hexaflow.adapters.nodes.fakes.StopSwitch;
import dev.hexaflow.workflow.engine.StopSignal;
import dev.hexaflow.workflow.port.out.CodeRunner.CodeException;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * JavaScript code nodes on JDK 22 and later, where GraalJS 23.1 fails (it calls a method of {@code sun.misc.Unsafe}
 * those JDKs removed): the worker runs on GraalJS 25, copied out of the build into an owner-only directory.
 */
class GraalJsOnNewerJdksTest {

    @Test
    void onJdk17ToJdk21AWorkerRunsOnTheServersOwnClassPath() {
        List<String> server = Stream.of(System.getProperty("java.class.path").split(File.pathSeparator))
                .filter(entry -> !entry.isBlank()).map(entry -> Path.of(entry).toAbsolutePath().toString()).toList();
        try (GraalJsClassPath classPath = GraalJsClassPath.forJdk(21)) {
            assertThat(classPath.options()).isEmpty();
            assertThat(classPath.entries()).isEqualTo(server);
        }
    }

    @Test
    void onJdk22AndLaterGraalJs25IsCopiedIntoAnOwnerOnlyDirectoryThatCloseRemoves() throws IOException {
        List<String> server = List.of(System.getProperty("java.class.path").split(File.pathSeparator));
        GraalJsClassPath classPath = GraalJsClassPath.forJdk(25);
        Path renewedDirectory;
        try {
            List<String> entries = classPath.entries();
            Path directory = Path.of(entries.get(0)).getParent();
            assertThat(directory.getFileName().toString()).startsWith("hexaflow-graaljs-" + ProcessHandle.current()
                    .pid() + "-");
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(directory))).isEqualTo(
                    "rwx------");
            assertThat(Path.of(entries.get(0), "dev/hexaflow/adapters/nodes/code/GraalJsWorker.class"))
                    .isRegularFile();
            assertThat(entries.stream().map(entry -> Path.of(entry).getFileName().toString()))
                    .contains("polyglot.jar", "truffle-api.jar", "js-language.jar", "jackson-databind.jar");
            assertThat(entries).allSatisfy(entry -> assertThat(entry).startsWith(directory.toString()))
                    .noneMatch(server::contains);
            assertThat(classPath.options()).containsExactly("--enable-native-access=ALL-UNNAMED",
                    "-Dpolyglot.engine.userResourceCache=" + directory.resolve("truffle-cache"),
                    "--sun-misc-unsafe-memory-access=allow");
            assertThat(GraalJsClassPath.renewed(classPath, 25)).as("intact: kept").isSameAs(classPath);
            // A cleaner of /tmp took a jar: the next worker's start copies them again.
            Files.delete(Path.of(entries.get(entries.size() - 1)));
            GraalJsClassPath renewed = GraalJsClassPath.renewed(classPath, 25);
            assertThat(renewed).isNotSameAs(classPath);
            assertThat(directory).doesNotExist();
            classPath = renewed;
            assertThat(renewed.entries()).allSatisfy(entry -> assertThat(Path.of(entry)).exists());
            renewedDirectory = Path.of(renewed.entries().get(0)).getParent();
        } finally {
            classPath.close();
        }
        assertThat(renewedDirectory).doesNotExist();
        try (GraalJsClassPath jdk22 = GraalJsClassPath.forJdk(22)) {
            // JDK 22 has no --sun-misc-unsafe-memory-access, and would refuse to start with it.
            assertThat(jdk22.options()).hasSize(2).doesNotContain("--sun-misc-unsafe-memory-access=allow");
        }
    }

    @Test
    void theCopyOfAServerThatWasKilledIsRemovedByTheNextCopy() throws Exception {
        Process ended = new ProcessBuilder("true").start();
        ended.waitFor();
        Path leftover = Files.createTempDirectory("hexaflow-graaljs-" + ended.pid() + "-");
        Files.writeString(leftover.resolve("polyglot.jar"), "left by a server killed with -9");
        Path live = Files.createTempDirectory("hexaflow-graaljs-" + ProcessHandle.current().pid() + "-");
        try (GraalJsClassPath classPath = GraalJsClassPath.forJdk(25)) {
            assertThat(leftover).doesNotExist();
            assertThat(live).as("a live server's copy").exists();
        } finally {
            Files.deleteIfExists(live);
        }
    }

    @Test
    void aJavaScriptNodeRunsOnJdk22OrLaterInItsSandboxAndWithItsTimeout() {
        Optional<NewerJava> newer = NewerJava.find();
        Assumptions.assumeTrue(newer.isPresent(), NewerJava.NONE);
        try (GraalJsCodeRunner runner = new GraalJsCodeRunner(
                new CodeLimits(Duration.ofSeconds(3), 128L * 1024 * 1024, 64 * 1024), 1,
                newer.get().java().toString(), newer.get().feature())) {
            Map<String, Object> result = runner.run("""
                    const main = ({n, word}) => ({doubled: n * 2, letters: [...word].join('-'),
                                                  joined: Object.entries({a: 1}).flat().join('')});
                    """, Map.of("n", 21, "word", "abc"), StopSignal.NEVER);

            assertThat(result).containsEntry("doubled", 42).containsEntry("letters", "a-b-c")
                    .containsEntry("joined", "a1");
            for (String expression : List.of("Java.type('java.lang.System').getenv('PATH')",
                    "Packages.java.lang.System.getenv('PATH')", "load('/etc/passwd')", "require('fs')")) {
                // The sandbox of GraalJS 23.1 (GraalJsCodeRunnerTest), on GraalJS 25.
                assertThatThrownBy(() -> runner.run("function main() { return {v: String(" + expression + ")}; }",
                        Map.of(), StopSignal.NEVER)).as(expression).isInstanceOf(CodeException.class)
                        .hasMessageMatching("(?s).*(ReferenceError: \\w+ is not defined|TypeError: Access to host "
                                + "class java\\.[a-zA-Z.]+ is not allowed or does not exist\\.).*");
            }
            assertThatThrownBy(() -> runner.run("function main() { while (true) {} }", Map.of(), StopSignal.NEVER))
                    .isInstanceOf(CodeException.class).hasMessageContaining("timed out");
            assertThat(runner.run("function main() { return {ok: true}; }", Map.of(), StopSignal.NEVER))
                    .containsEntry("ok", true);
        }
    }

    @Test
    void theMemoryTheResultSizeAndTheStopLimitsHoldOnJdk22OrLater() throws InterruptedException {
        Optional<NewerJava> newer = NewerJava.find();
        Assumptions.assumeTrue(newer.isPresent(), NewerJava.NONE);
        // Time to spare, so that only the limit under test can end a call (GraalJsCodeRunnerLimitsTest's cases).
        try (GraalJsCodeRunner runner = new GraalJsCodeRunner(
                new CodeLimits(Duration.ofSeconds(10), 256L * 1024 * 1024, 64 * 1024), 1,
                newer.get().java().toString(), newer.get().feature())) {
            assertThatThrownBy(() -> runner.run("function main() { return {s: 'x'.repeat(2**29).length}; }",
                    Map.of(), StopSignal.NEVER)).isInstanceOf(CodeException.class)
                    .hasMessage("Code used more than 256 MiB of memory");
            assertThatThrownBy(() -> runner.run("function main() { return {s: 'x'.repeat(100000)}; }", Map.of(),
                    StopSignal.NEVER)).isInstanceOf(CodeException.class).hasMessageContaining("larger than");

            StopSwitch stop = new StopSwitch();
            Thread puller = new Thread(() -> {
                try {
                    Thread.sleep(500);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                stop.pull();
            });
            puller.start();
            long began = System.nanoTime();
            assertThatThrownBy(() -> runner.run("function main() { new Array(2**25).fill(1); return {}; }",
                    Map.of(), stop)).isInstanceOf(CodeException.class).hasMessage("the run was stopped");
            assertThat((System.nanoTime() - began) / 1e9).as("seconds from the call, the stop came at 0.5")
                    .isLessThan(1.5);
            puller.join();
        }
    }
}
