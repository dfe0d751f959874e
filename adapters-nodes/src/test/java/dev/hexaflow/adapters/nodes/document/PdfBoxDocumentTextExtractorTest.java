package dev.hexaflow.adapters.nodes.document;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.hexaflow.workflow.port.out.DocumentTextExtractor.ExtractionException;
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

    /** A bad file's refusal: one sentence of its own, with no Java exception's name or text in it. */
    private String refusal(String extension, byte[] bytes) {
        ExtractionException refused = catchThrowableOfType(ExtractionException.class,
                () -> extractor.extract(bytes, extension, null));
        assertThat(refused).as("a bad %s file should be refused", extension).isNotNull();
        assertThat(refused.getMessage()).doesNotContainPattern("Exception|java\\.|\\[Source|\\(code \\d+\\)|\\n")
                .endsWith(".");
        return refused.getMessage();
    }

    @Test
    void textThatIsNotUtf8IsRefusedSayingWhere() {
        byte[] latin1 = {'c', 'a', 'f', (byte) 0xE9, '!'};

        assertThat(refusal(".txt", latin1))
                .isEqualTo("Failed to decode plain text file: it is not UTF-8 text (byte 4 of 5 is not).");
        assertThat(refusal(".json", latin1))
                .isEqualTo("Failed to decode or parse JSON file: it is not UTF-8 text (byte 4 of 5 is not).");
        assertThat(refusal(".csv", latin1))
                .isEqualTo("Failed to extract text from CSV: it is not UTF-8 text (byte 4 of 5 is not).");
    }

    @Test
    void emptyCutShortOrInvalidJsonIsRefusedInOneSentenceWithOnePlace() {
        assertThat(refusal(".json", utf8(""))).isEqualTo(
                "Failed to decode or parse JSON file: the file holds no JSON.");
        assertThat(refusal(".json", utf8("  \n"))).isEqualTo(
                "Failed to decode or parse JSON file: the file holds no JSON.");
        assertThat(refusal(".json", utf8("{\"a\": [1,\n 2"))).isEqualTo(
                "Failed to decode or parse JSON file: the JSON ends before it is complete (line 2, column 3).");
        assertThat(refusal(".json", utf8("{\"a\": tru}"))).isEqualTo(
                "Failed to decode or parse JSON file: the JSON is not valid at line 1, column 7.");
        assertThat(refusal(".json", utf8("{\"a\": 1} {\"b\": 2}"))).isEqualTo(
                "Failed to decode or parse JSON file: more text follows the JSON at line 1, column 10.");
    }

    @Test
    void csvWithAStrayOrUnclosedQuoteIsRefusedNamingOneLine() {
        assertThat(refusal(".csv", utf8("name,age\n\"Ada,36\nLin,7\n"))).isEqualTo(
                "Failed to extract text from CSV: a quoted field is never closed (line 2).");
        assertThat(refusal(".csv", utf8("name,age\nA\"da,36\n"))).isEqualTo(
                "Failed to extract text from CSV: a quote inside an unquoted field; quote the whole field and"
                        + " double the quote (line 2).");
    }

    @Test
    void aBrokenDocxIsRefusedInAPlainSentence() {
        byte[] docx = TestDocuments.docx(TestDocuments.paragraph("Hello"));
        byte[] cut = java.util.Arrays.copyOf(docx, docx.length / 2);
        byte[] badXml = TestDocuments.docx("<w:p><w:r><w:t>Hello</w:r></w:p>");

        assertThat(refusal(".docx", utf8("plain words, not a zip"))).isEqualTo(
                "Failed to extract text from DOC/DOCX: the file is not a DOCX document (not a zip archive).");
        assertThat(refusal(".docx", cut)).isEqualTo(
                "Failed to extract text from DOC/DOCX: the file is not a DOCX document (not a zip archive).");
        assertThat(refusal(".docx", zipWithoutADocument())).isEqualTo(
                "Failed to extract text from DOC/DOCX: the file holds no word/document.xml.");
        assertThat(refusal(".docx", badXml)).isEqualTo("Failed to extract text from DOC/DOCX: its"
                + " word/document.xml is not well-formed XML (line 1, column 114).");
    }

    private static byte[] zipWithoutADocument() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ZipOutputStream zip = new ZipOutputStream(bytes)) {
            zip.putNextEntry(new ZipEntry("content.xml"));
            zip.write(utf8("<office/>"));
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    @Test
    void aCorruptPdfIsRefusedInAPlainSentence() {
        byte[] pdf = TestDocuments.pdfOfEmptyPages(1);

        assertThat(refusal(".pdf", utf8("%PDF-1.7 and then nothing of a PDF"))).isEqualTo(
                "Failed to extract text from PDF: the file is not a readable PDF.");
        assertThat(refusal(".pdf", utf8("not a PDF at all"))).isEqualTo(
                "Failed to extract text from PDF: the file is not a readable PDF.");
        assertThat(refusal(".pdf", java.util.Arrays.copyOf(pdf, 40))).isEqualTo(
                "Failed to extract text from PDF: the file is not a readable PDF.");
    }

    @Test
    void aDamagedDocxOrPdfIsReadOrRefusedButNeverFailsAnotherWay() {
        byte[] docx = TestDocuments.docx(TestDocuments.paragraph("Hello") + TestDocuments.paragraph("World"));
        byte[] pdf = TestDocuments.pdfDrawingAForm(2, 2, "Hello");
        java.util.Random random = new java.util.Random(42);

        for (int i = 0; i < 300; i++) {
            for (byte[] original : new byte[][] {docx, pdf}) {
                byte[] damaged = original.clone();
                for (int flips = 1 + random.nextInt(8); flips > 0; flips--) {
                    damaged[random.nextInt(damaged.length)] = (byte) random.nextInt(256);
                }
                String extension = original == docx ? ".docx" : ".pdf";
                try {
                    extractor.extract(damaged, extension, null);
                } catch (ExtractionException e) {
                    assertThat(e.getMessage()).doesNotContainPattern("Exception|java\\.").endsWith(".");
                }
            }
        }
    }

    @Test
    void anUnsupportedTypeIsRefusedNamingIt() {
        assertThatThrownBy(() -> extract("application/zip", new byte[] {1, 2}))
                .isInstanceOf(ExtractionException.class).hasMessage("Unsupported MIME type: application/zip");
    }
}
