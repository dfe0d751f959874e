package dev.hexaflow.adapters.nodes.document;

import static dev.hexaflow.adapters.nodes.document.TestDocuments.DOCX_TYPE;
import static dev.hexaflow.adapters.nodes.document.TestDocuments.paragraph;
import static dev.hexaflow.adapters.nodes.document.TestDocuments.utf8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.hexaflow.workflow.port.out.DocumentTextExtractor.ExtractionException;
import java.lang.management.ManagementFactory;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * What one document may make the extractor produce, with its default bounds: files small on the wire and huge
 * inside (a DOCX that inflates a thousandfold, a PDF that draws one form over and over or whose content inflates
 * a thousandfold, JSON whose indentation grows with the square of its depth, CSV that triples) are refused with a
 * sentence naming the bound, after a bounded amount of work, not after the text is built.
 */
class PdfBoxDocumentTextExtractorBoundsTest {

    private static final long MB = 1024 * 1024;
    private static final String CHARS = "The document's text is longer than 4,000,000 characters, the most Hexaflow"
            + " extracts from one document (HEXAFLOW_DOCUMENT_MAX_CHARS).";

    private final PdfBoxDocumentTextExtractor extractor = new PdfBoxDocumentTextExtractor();

    /** The refusal, and the bytes this thread allocated until it came. */
    private record Refusal(String message, long allocated) {
    }

    private static Refusal refusal(Supplier<String> extraction) {
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean)
                ManagementFactory.getThreadMXBean();
        long before = threads.getCurrentThreadAllocatedBytes();
        ExtractionException refused = catchThrowableOfType(ExtractionException.class, extraction::get);
        long allocated = threads.getCurrentThreadAllocatedBytes() - before;
        assertThat(refused).as("the extraction should be refused").isNotNull();
        return new Refusal(refused.getMessage(), allocated);
    }

    @Test
    void aDocxThatInflatesAThousandfoldIsRefusedAfterAMegabyteOrSo() {
        // 60 MB of paragraphs in about 60 KB: a 1.2 MB file of this kind inflates to 1.2 GB.
        byte[] bomb = TestDocuments.docxRepeating("", paragraph("a".repeat(1000)), 60_000);
        assertThat(bomb.length).isLessThan(1024 * 1024);

        Refusal refusal = refusal(() -> extractor.extract(bomb, ".docx", DOCX_TYPE));

        assertThat(refusal.message()).isEqualTo("The DOCX file's word/document.xml inflates to more than 100 times"
                + " its compressed size, which only a zip bomb does.");
        assertThat(refusal.allocated()).as("bytes allocated before the refusal").isLessThan(32 * MB);
    }

    @Test
    void aDocxWithMoreEntriesThanAWordFileHasIsRefused() {
        byte[] docx = TestDocuments.docxWithEntries(1_001);

        assertThat(refusal(() -> extractor.extract(docx, ".docx", DOCX_TYPE)).message())
                .isEqualTo("The DOCX file holds more than 1,000 zip entries; a Word document holds a few dozen.");
    }

    @Test
    void aPageThatDrawsOneFormThousandsOfTimesIsRefusedBeforeItsTextIsHeld() {
        // 2,000 draws of a form showing 100 characters: 200,000 characters on one page, from a file of a few KB.
        byte[] pdf = TestDocuments.pdfDrawingAForm(1, 2_000, "x".repeat(100));

        Refusal refusal = refusal(() -> extractor.extract(pdf, ".pdf", "application/pdf"));

        assertThat(refusal.message()).isEqualTo("A page of the PDF shows more than 100,000 characters, more than"
                + " any page of text holds.");
    }

    @Test
    void aPdfWithMorePagesThanTheBoundIsRefusedBeforeItsPagesAreRead() {
        byte[] pdf = TestDocuments.pdfOfEmptyPages(2_001);

        assertThat(refusal(() -> extractor.extract(pdf, ".pdf", "application/pdf")).message())
                .isEqualTo("The PDF has more than 2,000 pages, the most Hexaflow reads in one document"
                        + " (HEXAFLOW_DOCUMENT_MAX_PAGES).");
    }

    @Test
    void aPdfWhoseContentInflatesAThousandfoldIsRefusedBeforeItIsDecoded() {
        // 20 MB of drawing operations in about 20 KB.
        byte[] pdf = TestDocuments.pdfWithContent("q Q\n", 5_000_000);
        assertThat(pdf.length).isLessThan(256 * 1024);

        Refusal refusal = refusal(() -> extractor.extract(pdf, ".pdf", "application/pdf"));

        assertThat(refusal.message()).isEqualTo("A stream of the PDF inflates to more than 100 times its"
                + " compressed size, which only a zip bomb does.");
        assertThat(refusal.allocated()).as("bytes allocated before the refusal").isLessThan(16 * MB);
    }

    @Test
    void jsonWhoseIndentationOutgrowsTheBoundIsRefused() {
        // Each array nested 400 deep is 800 bytes that Python's indent=2 writes as about 320,000 characters.
        String nested = "[".repeat(400) + "0" + "]".repeat(400);
        byte[] json = utf8("[" + String.join(",", java.util.Collections.nCopies(20, nested)) + "]");

        assertThat(refusal(() -> extractor.extract(json, ".json", "application/json")).message())
                .isEqualTo(CHARS);
    }

    @Test
    void csvWhoseTableOutgrowsTheBoundIsRefused() {
        // Each empty cell becomes " | ": 2 MB of commas make a 6,000,000-character table.
        byte[] csv = utf8((",".repeat(1_999) + "\n").repeat(1_000));

        assertThat(refusal(() -> extractor.extract(csv, ".csv", "text/csv")).message()).isEqualTo(CHARS);
    }

    @Test
    void textIsBoundByItsCharactersNotItsBytes() {
        byte[] tooLong = utf8("a".repeat(4_000_001));
        byte[] longestInTwoByteCharacters = utf8("é".repeat(4_000_000));

        assertThat(refusal(() -> extractor.extract(tooLong, ".txt", "text/plain")).message()).isEqualTo(CHARS);
        assertThat(extractor.extract(longestInTwoByteCharacters, ".md", "text/markdown")).hasSize(4_000_000);
    }

    @Test
    void eachBoundIsTheOperatorsToSet() {
        PdfBoxDocumentTextExtractor small = new PdfBoxDocumentTextExtractor(new DocumentLimits(1_000, 2, 1));
        byte[] docx = TestDocuments.docx(paragraph("a".repeat(1_001)));
        byte[] pdf = TestDocuments.pdfDrawingAForm(1, 11, "x".repeat(100));
        byte[] threePages = TestDocuments.pdfOfEmptyPages(3);

        assertThat(refusal(() -> small.extract(docx, ".docx", DOCX_TYPE)).message()).isEqualTo("The document's"
                + " text is longer than 1,000 characters, the most Hexaflow extracts from one document"
                + " (HEXAFLOW_DOCUMENT_MAX_CHARS).");
        assertThat(refusal(() -> small.extract(pdf, ".pdf", "application/pdf")).message()).startsWith("The"
                + " document's text is longer than 1,000 characters");
        assertThat(refusal(() -> small.extract(threePages, ".pdf", "application/pdf")).message()).isEqualTo(
                "The PDF has more than 2 pages, the most Hexaflow reads in one document"
                        + " (HEXAFLOW_DOCUMENT_MAX_PAGES).");
    }

    @Test
    void aDocxWhoseMarkupInflatesPastTheBoundIsRefusedWhateverItsText() {
        // Random ids deflate about twice: no bomb, but 2 MB of markup around no text at all.
        String ids = TestDocuments.letters(2 * 1024 * 1024, 7);
        StringBuilder body = new StringBuilder();
        for (int i = 0; i < ids.length(); i += 32) {
            body.append("<w:bookmarkStart w:name=\"").append(ids, i, i + 32).append("\"/>");
        }
        byte[] docx = TestDocuments.docx(body.toString());
        PdfBoxDocumentTextExtractor oneMegabyte = new PdfBoxDocumentTextExtractor(new DocumentLimits(4_000_000,
                2_000, 1));

        assertThat(refusal(() -> oneMegabyte.extract(docx, ".docx", DOCX_TYPE)).message()).isEqualTo("The DOCX"
                + " file's word/document.xml inflates to more than 1 MB, the most Hexaflow unpacks from one document"
                + " (HEXAFLOW_DOCUMENT_MAX_INFLATED_MB).");
        assertThat(extractor.extract(docx, ".docx", DOCX_TYPE)).as("within the default bound").isEmpty();
    }

    @Test
    void aDocxTagLongerThanAMegabyteIsRefusedBeforeTheParserHoldsIt() {
        byte[] docx = TestDocuments.docx("<w:p w:rsidR=\"" + TestDocuments.letters(1_100_000, 11) + "\"/>");

        assertThat(refusal(() -> extractor.extract(docx, ".docx", DOCX_TYPE)).message()).isEqualTo("The DOCX"
                + " file's word/document.xml has markup longer than 1 MB, which no Word document has.");
    }

    @Test
    void aPdfWhoseStreamsInflatePastTheBoundIsRefused() {
        StringBuilder moves = new StringBuilder();
        java.util.Random random = new java.util.Random(3);
        while (moves.length() < 2 * 1024 * 1024) {
            moves.append(random.nextInt(600)).append(' ').append(random.nextInt(800)).append(" m\n");
        }
        byte[] pdf = TestDocuments.pdfWithContent(utf8(moves.toString()));
        PdfBoxDocumentTextExtractor oneMegabyte = new PdfBoxDocumentTextExtractor(new DocumentLimits(4_000_000,
                2_000, 1));

        assertThat(refusal(() -> oneMegabyte.extract(pdf, ".pdf", "application/pdf")).message()).isEqualTo("The"
                + " PDF's streams inflate to more than 1 MB, the most Hexaflow unpacks from one document"
                + " (HEXAFLOW_DOCUMENT_MAX_INFLATED_MB).");
    }

    @Test
    void formsDrawnWithinFormsAreRefusedAtTheOperationsBoundThoughTheyShowNothing() {
        // 300 draws of a form that draws another 300 times: 90,000 operations from a few KB, and no text.
        byte[] pdf = TestDocuments.pdfOfNestedForms(300);
        PdfBoxDocumentTextExtractor onePage = new PdfBoxDocumentTextExtractor(new DocumentLimits(4_000_000, 1, 100));

        assertThat(refusal(() -> onePage.extract(pdf, ".pdf", "application/pdf")).message()).isEqualTo("The"
                + " PDF's pages run more than 10,000 drawing operations, the most Hexaflow runs for one document"
                + " (10,000 for each page HEXAFLOW_DOCUMENT_MAX_PAGES allows).");
    }

    @Test
    void documentsWithinTheBoundsReadAsBefore() {
        byte[] docx = TestDocuments.docx(paragraph("First") + paragraph("Second"));
        byte[] pdf = TestDocuments.pdfDrawingAForm(3, 2, "Hello");
        byte[] json = utf8("{\"a\": {}, \"b\": [], \"c\": [{\"d\": null}]}");

        assertThat(extractor.extract(docx, ".docx", DOCX_TYPE)).isEqualTo("First\nSecond");
        assertThat(extractor.extract(pdf, ".pdf", "application/pdf").strip().split("\\s+")).hasSize(6)
                .containsOnly("Hello");
        assertThat(extractor.extract(json, ".json", "application/json")).isEqualTo("{\n  \"a\": {},\n  \"b\": [],\n"
                + "  \"c\": [\n    {\n      \"d\": null\n    }\n  ]\n}");
        assertThat(extractor.extract(utf8("a,b\n1,2\n"), ".csv", "text/csv")).isEqualTo("| a | b |\n| --- | --- |\n"
                + "| 1 | 2 |");
    }
}
