package dev.hexaflow.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hexaflow.domain.campus.DataSetTooLargeException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A data set is bounded in records and bytes, so that no keyless answer of the feed grows without end: a file
 * over a bound is refused whole, by the admin API and by {@code campus import}, naming the bound, and the data
 * served stays as it was.
 */
class CampusDataSetBoundsTest {

    @TempDir
    Path root;

    @Test
    void aHolidaysFileOverTheRecordBoundIsRefused413AndTheFeedStaysAsItWas() {
        try (TestServer server = TestServer.start(root.resolve("data"))) {
            String before = feed(server);

            HttpResponse<String> response = server.admin("PUT", "/admin/campus/holidays", "text/csv",
                    holidays(DataSetTooLargeException.MAX_RECORDS + 1));

            assertThat(response.statusCode()).as(response.body()).isEqualTo(413);
            JsonNode error = TestServer.json(response);
            assertThat(error.get("code").asText()).isEqualTo("data_set_too_large");
            assertThat(error.get("message").asText()).contains("at most 5000 records", "Nothing was changed");
            assertThat(feed(server)).isEqualTo(before);
        }
    }

    @Test
    void aFileOverTheByteBoundIsRefused413ThoughItsRecordsAreFew() {
        try (TestServer server = TestServer.start(root.resolve("data"))) {
            String before = feed(server);
            // 2200 records of the longest names a holiday may have: valid, under the record bound, over 1 MiB.
            StringBuilder body = new StringBuilder("date,holiday\n");
            LocalDate day = LocalDate.of(2000, 1, 1);
            for (int i = 0; i < 2200; i++) {
                body.append(day.plusDays(i)).append(',').append("n".repeat(500)).append('\n');
            }
            assertThat(body.length()).isGreaterThan(DataSetTooLargeException.MAX_BYTES);

            HttpResponse<String> response = server.admin("PUT", "/admin/campus/holidays", "text/csv",
                    body.toString());

            assertThat(response.statusCode()).as(response.body()).isEqualTo(413);
            assertThat(TestServer.json(response).get("message").asText()).contains("at most 1048576 bytes");
            assertThat(feed(server)).isEqualTo(before);
        }
    }

    @Test
    void aFileAtTheRecordBoundIsTaken() {
        try (TestServer server = TestServer.start(root.resolve("data"))) {
            HttpResponse<String> response = server.admin("PUT", "/admin/campus/holidays", "text/csv",
                    holidays(DataSetTooLargeException.MAX_RECORDS));

            assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
            assertThat(TestServer.json(response).get("records").asInt()).isEqualTo(5000);
        }
    }

    @Test
    void campusImportRefusesAFileOverEitherBoundAndChangesNothing() throws IOException {
        Path dataDir = root.resolve("data");
        String before;
        try (TestServer server = TestServer.start(dataDir)) {
            before = feed(server);
        }
        Path tooMany = Files.writeString(root.resolve("many.csv"), holidays(DataSetTooLargeException.MAX_RECORDS
                + 1));
        Path tooLarge = Files.writeString(root.resolve("large.csv"), "date,holiday\n" + "2030-01-01,x\n".repeat(
                100_000));

        String[] many = cli("campus", "import", "holidays", tooMany.toString(), "--data-dir", dataDir.toString());
        String[] large = cli("campus", "import", "holidays", tooLarge.toString(), "--data-dir",
                dataDir.toString());

        assertThat(many[0]).isEqualTo("1");
        assertThat(many[1]).contains("at most 5000 records", "nothing was changed");
        assertThat(large[0]).isEqualTo("1");
        assertThat(large[1]).contains("at most 1048576 bytes", "nothing was changed");
        try (TestServer server = TestServer.start(dataDir)) {
            assertThat(feed(server)).isEqualTo(before);
        }
    }

    /** The keyless holidays calendar, without the stamp of the moment it was made. */
    private static String feed(TestServer server) {
        HttpResponse<String> response = server.get("/v2/events/holidays.json");
        assertThat(response.statusCode()).isEqualTo(200);
        return response.body().replaceAll("\"timestamp\":\\d+", "");
    }

    private static String holidays(int rows) {
        StringBuilder csv = new StringBuilder("date,holiday\n");
        LocalDate day = LocalDate.of(2000, 1, 1);
        for (int i = 0; i < rows; i++) {
            csv.append(day.plusDays(i)).append(",Holiday ").append(i).append('\n');
        }
        return csv.toString();
    }

    /** Exit code and error output of the command line. */
    private static String[] cli(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit = Main.run(args, Map.of(), new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new String[] {String.valueOf(exit), err.toString(StandardCharsets.UTF_8)};
    }
}
