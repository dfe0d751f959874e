package dev.hexaflow.app;

import static dev.hexaflow.app.api.ServiceApi.json;
import static dev.hexaflow.app.api.ServiceApi.run;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.ByteArrayInputStream;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.Map;
import org.apache.poi.xwpf.usermodel.XWPFDocument;
import org.apache.poi.xwpf.usermodel.XWPFParagraph;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The md_exporter plugin built in, on the real server: a DSL whose tool node names
 * {@code bowenliang123/md_exporter/md_exporter} imports with no warning, and its run answers the Word file as a tool
 * file, which its signed URL serves and POI reads back.
 */
class DocumentToolsHttpTest {

    @TempDir
    Path dataDir;

    @Test
    void mdToDocxAnswersAWordFileServedAtItsSignedUrl() throws Exception {
        try (TestServer server = TestServer.start(TestServer.config(dataDir))) {
            JsonNode imported = server.importApp("md-exporter-docx.yml");
            assertThat(imported.get("warnings")).as("md_exporter is built in").isEmpty();

            JsonNode ran = json(server.api(imported.get("api_key").asText()).postJson("/v1/workflows/run",
                    run(Map.of("report", "# Sales\n\nSales **grew**.\n\n| Region | Sales |\n|---|---|\n| North | 12 |"),
                            "blocking", "ada"))).get("data");

            assertThat(ran.get("status").asText()).as(ran.toString()).isEqualTo("succeeded");
            JsonNode file = ran.get("outputs").get("files").get(0);
            assertThat(file.get("filename").asText()).isEqualTo("report.docx");
            assertThat(file.get("extension").asText()).isEqualTo(".docx");
            assertThat(file.get("type").asText()).isEqualTo("document");
            assertThat(file.get("mime_type").asText())
                    .isEqualTo("application/vnd.openxmlformats-officedocument.wordprocessingml.document");
            HttpResponse<byte[]> served = server.getBytes(file.get("url").asText());
            assertThat(served.statusCode()).isEqualTo(200);
            try (XWPFDocument document = new XWPFDocument(new ByteArrayInputStream(served.body()))) {
                assertThat(document.getParagraphs()).extracting(XWPFParagraph::getText).contains("Sales",
                        "Sales grew.");
                assertThat(document.getTables().get(0).getRow(1).getCell(0).getText()).isEqualTo("North");
            }
        }
    }
}
