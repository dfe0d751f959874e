package dev.hexaflow.app;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hexaflow.testing.SharedFolder;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class BundledDataTest {

    @Test
    void theShippedHolidaysAreTheUniversitysFileByteForByte() throws Exception {
        Path real = SharedFolder.require("conformance/campus/holidays.csv");

        try (InputStream shipped = BundledDataTest.class.getResourceAsStream("/campus/holidays.csv")) {
            assertThat(shipped).isNotNull();
            assertThat(shipped.readAllBytes()).isEqualTo(Files.readAllBytes(real));
        }
    }
}
