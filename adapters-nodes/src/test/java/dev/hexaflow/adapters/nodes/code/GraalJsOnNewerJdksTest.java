package dev.hexaflow.adapters.nodes.code;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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
import java.util.regex.Matcher;
import java.util.regex.Pattern;
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
        try (GraalJsClassPath classPath = GraalJsClassPath.forJdk(17)) {
            assertThat(classPath.options()).isEmpty();
            assertThat(classPath.entries()).isNotEmpty().allSatisfy(entry -> assertThat(
                    System.getProperty("java.class.path")).contains(Path.of(entry).getFileName().toString()));
        }
    }

    @Test
    void onJdk22AndLaterGraalJs25IsCopiedIntoAnOwnerOnlyDirectoryThatCloseRemoves() throws IOException {
        GraalJsClassPath classPath = GraalJsClassPath.forJdk(25);
        Path directory;
        try {
            List<String> entries = classPath.entries();
            directory = Path.of(entries.get(0)).getParent();
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(directory))).isEqualTo(
                    "rwx------");
            assertThat(Path.of(entries.get(0), "dev/hexaflow/adapters/nodes/code/GraalJsWorker.class"))
                    .isRegularFile();
            assertThat(entries.stream().map(entry -> Path.of(entry).getFileName().toString()))
                    .contains("polyglot.jar", "truffle-api.jar", "js-language.jar", "jackson-databind.jar");
            assertThat(entries).allSatisfy(entry -> assertThat(entry).startsWith(directory.toString()));
            assertThat(classPath.asArgument()).doesNotContain("23.1.8");
            assertThat(classPath.options()).containsExactly("--enable-native-access=ALL-UNNAMED",
                    "--sun-misc-unsafe-memory-access=allow");
        } finally {
            classPath.close();
        }
        assertThat(directory).doesNotExist();
        try (GraalJsClassPath jdk22 = GraalJsClassPath.forJdk(22)) {
            // JDK 22 has no --sun-misc-unsafe-memory-access, and would refuse to start with it.
            assertThat(jdk22.options()).containsExactly("--enable-native-access=ALL-UNNAMED");
        }
    }

    @Test
    void aJavaScriptNodeRunsOnJdk22OrLaterWithItsLimits() {
        Optional<NewerJava> newer = NewerJava.find();
        Assumptions.assumeTrue(newer.isPresent(), "skipped: no JDK 22 or later found (HEXAFLOW_TEST_NEWER_JAVA, "
                + "or a JDK under /usr/lib/jvm)");
        try (GraalJsCodeRunner runner = new GraalJsCodeRunner(
                new CodeLimits(Duration.ofSeconds(3), 128L * 1024 * 1024, 64 * 1024), 1,
                newer.get().java().toString(), newer.get().feature())) {
            Map<String, Object> result = runner.run("""
                    const main = ({n, word}) => ({doubled: n * 2, letters: [...word].join('-'),
                                                  joined: Object.entries({a: 1}).flat().join('')});
                    """, Map.of("n", 21, "word", "abc"), StopSignal.NEVER);

            assertThat(result).containsEntry("doubled", 42).containsEntry("letters", "a-b-c")
                    .containsEntry("joined", "a1");
            assertThatThrownBy(() -> runner.run("function main() { while (true) {} }", Map.of(), StopSignal.NEVER))
                    .isInstanceOf(CodeException.class).hasMessageContaining("timed out");
            assertThat(runner.run("function main() { return {ok: true}; }", Map.of(), StopSignal.NEVER))
                    .containsEntry("ok", true);
        }
    }

    /** A JDK of feature release 22 or later: the one HEXAFLOW_TEST_NEWER_JAVA names, or one under /usr/lib/jvm. */
    private record NewerJava(Path java, int feature) {
        private static final Pattern VERSION = Pattern.compile("^JAVA_VERSION=\"(\\d+)", Pattern.MULTILINE);

        static Optional<NewerJava> find() {
            String named = System.getenv("HEXAFLOW_TEST_NEWER_JAVA");
            if (named != null && !named.isBlank()) {
                return of(Path.of(named));
            }
            Path jvms = Path.of("/usr/lib/jvm");
            if (!Files.isDirectory(jvms)) {
                return Optional.empty();
            }
            try (Stream<Path> homes = Files.list(jvms)) {
                return homes.sorted().map(home -> home.resolve("bin").resolve("java")).map(NewerJava::of)
                        .flatMap(Optional::stream).filter(java -> java.feature() >= GraalJsClassPath.NEWER_FROM)
                        .findFirst();
            } catch (IOException e) {
                return Optional.empty();
            }
        }

        private static Optional<NewerJava> of(Path java) {
            Path release = java.toAbsolutePath().getParent().getParent().resolve("release");
            if (!new File(java.toString()).canExecute() || !Files.isRegularFile(release)) {
                return Optional.empty();
            }
            try {
                Matcher version = VERSION.matcher(Files.readString(release));
                return version.find() ? Optional.of(new NewerJava(java, Integer.parseInt(version.group(1))))
                        : Optional.empty();
            } catch (IOException e) {
                return Optional.empty();
            }
        }
    }
}
