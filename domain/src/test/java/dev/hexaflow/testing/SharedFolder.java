package dev.hexaflow.testing;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Assumptions;

/**
 * The shared folder beside the clone ({@code ../shared}: Dify's conformance fixtures, the university's campus
 * files), which is not part of the repository. A test that reads it skips where it is absent, as in a clone on its
 * own, but fails where {@code CI=true}: a CI run must not pass by skipping. The system property
 * {@code hexaflow.shared} points at another copy of the folder (or at none, to see a test skip or fail).
 */
public final class SharedFolder {

    private static final Path ROOT = Path.of(System.getProperty("hexaflow.shared", Path.of("..", "..", "shared").toString()));

    private SharedFolder() {
    }

    /**
     * The file or folder at {@code relative} inside the shared folder, such as {@code conformance/dify-dsl}.
     * Where it is absent the calling test is aborted (skipped), or failed on CI.
     */
    public static Path require(String relative) {
        Path path = ROOT.resolve(relative);
        if (!Files.exists(path)) {
            String missing = "the shared folder's " + relative + " is not at " + path.toAbsolutePath().normalize();
            if ("true".equalsIgnoreCase(System.getenv("CI"))) {
                throw new AssertionError(missing + ", and CI=true: on CI the tests that read it must run");
            }
            Assumptions.abort(missing + " (a clone on its own): skipped");
        }
        return path;
    }
}
