package dev.hexaflow.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class BundledDataTest {

    @Test
    void theShippedHolidaysAreTheUniversitysFileByteForByte() throws Exception {
        Path real = Path.of("..", "..", "shared", "conformance", "campus", "holidays.csv");
        assumeTrue(Files.exists(real), "the shared conformance folder is not beside this clone");

        try (InputStream shipped = BundledDataTest.class.getResourceAsStream("/campus/holidays.csv")) {
            assertThat(shipped).isNotNull();
            assertThat(shipped.readAllBytes()).isEqualTo(Files.readAllBytes(real));
        }
    }
}
