package dev.hexaflow.adapters.nodes.document;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hexaflow.application.workflow.port.out.DocumentTextExtractor.ExtractionException;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.apache.pdfbox.pdmodel.PDPage;
import org.apache.pdfbox.pdmodel.PDPageContentStream;
import org.apache.pdfbox.pdmodel.font.PDType1Font;
import org.apache.pdfbox.pdmodel.font.Standard14Fonts;
import org.junit.jupiter.api.Test;

/**
 * The document-extractor's reader, given a file's bytes and MIME type as the node gives those of a file by URL
 * (no extension: Dify goes by the type of a remote file), and answering the text Dify's extractor answers.
 */
class PdfBoxDocumentTextExtractorTest {

    private final PdfBoxDocumentTextExtractor extractor = new PdfBoxDocumentTextExtractor();

    private String extract(String mimeType, byte[] bytes) {
        return extractor.extract(bytes, null, mimeType);
    }

    private static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void textMarkdownAndHtmlComeBackAsTheyAre() {
        assertThat(extract("text/plain", utf8("plain é"))).isEqualTo("plain é");
        assertThat(extract("text/html", utf8("<p>Hi</p>"))).isEqualTo("<p>Hi</p>");
    }

    @Test
    void jsonIsReindentedAndCsvBecomesAMarkdownTable() {
        assertThat(extract("application/json", utf8("{\"a\":[1,2],\"b\":\"é\"}")))
                .isEqualTo("{\n  \"a\": [\n    1,\n    2\n  ],\n  \"b\": \"é\"\n}");
        assertThat(extract("text/csv", utf8("name,age\nAda,36\n\"Lin, K\",7\n")))
                .isEqualTo("| name | age |\n| --- | --- |\n| Ada | 36 |\n| Lin, K | 7 |");
    }

    @Test
    void docxAndPdfTextIsRead() throws Exception {
        ByteArrayOutputStream docx = new ByteArrayOutputStream();
        try (ZipOutputStream zip = new ZipOutputStream(docx)) {
            zip.putNextEntry(new ZipEntry("word/document.xml"));
            zip.write(utf8("<w:document xmlns:w=\"http://schemas.openxmlformats.org/wordprocessingml/2006/main\">"
                    + "<w:body><w:p><w:r><w:t>First</w:t></w:r><w:r><w:tab/><w:t>line</w:t></w:r></w:p>"
                    + "<w:p><w:r><w:t>Second</w:t></w:r></w:p></w:body></w:document>"));
        }
        ByteArrayOutputStream pdf = new ByteArrayOutputStream();
        try (PDDocument document = new PDDocument()) {
            PDPage page = new PDPage();
            document.addPage(page);
            try (PDPageContentStream content = new PDPageContentStream(document, page)) {
                content.beginText();
                content.setFont(new PDType1Font(Standard14Fonts.FontName.HELVETICA), 12);
                content.newLineAtOffset(72, 700);
                content.showText("Hello from a PDF");
                content.endText();
            }
            document.save(pdf);
        }

        assertThat(extract("application/vnd.openxmlformats-officedocument.wordprocessingml.document",
                docx.toByteArray())).isEqualTo("First\tline\nSecond");
        assertThat(extract("application/pdf", pdf.toByteArray())).contains("Hello from a PDF");
    }

    @Test
    void anUnsupportedTypeIsRefusedNamingIt() {
        assertThatThrownBy(() -> extract("application/zip", new byte[] {1, 2}))
                .isInstanceOf(ExtractionException.class).hasMessage("Unsupported MIME type: application/zip");
    }
}
