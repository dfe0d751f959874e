package dev.hexaflow.adapters.nodes.code;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * A JDK of feature release 22 or later, where GraalJS 23.1 fails: the one {@code HEXAFLOW_TEST_NEWER_JAVA} names
 * (its {@code bin/java}), or the first under {@code /usr/lib/jvm}. Shared with app's tests.
 */
public record NewerJava(Path java, int feature) {

    private static final Pattern VERSION = Pattern.compile("^JAVA_VERSION=\"(\\d+)", Pattern.MULTILINE);

    /** Why a test that needs one is skipped when there is none. */
    public static final String NONE = "skipped: no JDK 22 or later found (HEXAFLOW_TEST_NEWER_JAVA, or a JDK under "
            + "/usr/lib/jvm)";

    public static Optional<NewerJava> find() {
        String named = System.getenv("HEXAFLOW_TEST_NEWER_JAVA");
        if (named != null && !named.isBlank()) {
            return of(Path.of(named)).filter(NewerJava::isNewer);
        }
        Path jvms = Path.of("/usr/lib/jvm");
        if (!Files.isDirectory(jvms)) {
            return Optional.empty();
        }
        try (Stream<Path> homes = Files.list(jvms)) {
            return homes.sorted().map(home -> home.resolve("bin").resolve("java")).map(NewerJava::of)
                    .flatMap(Optional::stream).filter(NewerJava::isNewer).findFirst();
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    private boolean isNewer() {
        return feature >= GraalJsClassPath.NEWER_FROM;
    }

    private static Optional<NewerJava> of(Path java) {
        try {
            Path real = java.toRealPath();
            Matcher version = VERSION.matcher(Files.readString(real.getParent().getParent().resolve("release")));
            return Files.isExecutable(real) && version.find()
                    ? Optional.of(new NewerJava(real, Integer.parseInt(version.group(1)))) : Optional.empty();
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }
}
