package dev.hexaflow.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The test pyramid stands on its base: the use cases are tested on the in-memory adapters more often than the whole
 * server is driven over HTTP. A use-case test runs in milliseconds and names the rule it breaks; an end-to-end test
 * proves the wiring and the wire. Counted in test methods, since a parameterised case list is data, not a test.
 */
class TestPyramidTest {

    private static final Path ROOT = Path.of(System.getProperty("hexaflow.root", "..")).toAbsolutePath().normalize();
    private static final Pattern TEST_METHOD =
            Pattern.compile("^\\s*@(Test|ParameterizedTest|RepeatedTest)\\b", Pattern.MULTILINE);
    /** A test that starts the real server, in-process or as the packaged jar, or drives a browser against it. */
    private static final Pattern END_TO_END = Pattern.compile("\\b(TestServer|JarServer)\\b");

    @Test
    void moreUseCaseTestsThanEndToEndTests() {
        int useCase = testMethods(sources("application-tests/src/test/java"))
                + testMethods(sources("application/src/test/java"));
        int endToEnd = testMethods(sources("app/src/test/java").stream().filter(TestPyramidTest::isEndToEnd).toList());

        assertThat(endToEnd).as("end-to-end test methods found").isGreaterThan(100);
        assertThat(useCase).as("use-case test methods against %d end-to-end ones", endToEnd).isGreaterThan(endToEnd);
    }

    @Test
    void everyContextHasUseCaseTests() throws IOException {
        Path contexts = ROOT.resolve("application/src/main/java/dev/hexaflow/application");
        Path tests = ROOT.resolve("application-tests/src/test/java/dev/hexaflow/application");
        List<String> names;
        try (Stream<Path> children = Files.list(contexts)) {
            names = children.filter(Files::isDirectory).map(path -> path.getFileName().toString())
                    .filter(name -> !name.equals("common")).sorted().toList();
        }
        assertThat(names).as("contexts read").hasSizeGreaterThan(5);
        for (String context : names) {
            assertThat(testMethods(sources(ROOT.relativize(tests.resolve(context)).toString())))
                    .as("use-case test methods of the %s context", context).isGreaterThan(0);
        }
    }

    private static boolean isEndToEnd(Path source) {
        String name = source.getFileName().toString();
        return name.endsWith("HttpTest.java") || name.endsWith("BrowserTest.java") || name.endsWith("IT.java")
                || END_TO_END.matcher(read(source)).find();
    }

    private static int testMethods(List<Path> sources) {
        return sources.stream().mapToInt(source -> (int) TEST_METHOD.matcher(read(source)).results().count()).sum();
    }

    private static List<Path> sources(String folder) {
        Path root = ROOT.resolve(folder);
        if (!Files.isDirectory(root)) {
            return List.of();
        }
        try (Stream<Path> files = Files.walk(root)) {
            return files.filter(path -> path.toString().endsWith(".java")).toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String read(Path source) {
        try {
            return Files.readString(source);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
