package dev.hexaflow.adapters.nodes.document;

import dev.hexaflow.workflow.port.out.DocumentTextExtractor.ExtractionException;
import java.util.Locale;

/**
 * What one document may make the extractor produce or unpack, whatever its size on the wire: the characters of its
 * text (every format, counted as they are produced), a PDF's pages, and the bytes that a DOCX's zip or a PDF's
 * streams inflate to (counted as they inflate, never read from a header). A file is refused as soon as it passes
 * one, with a sentence naming the bound and the setting that raises it.
 *
 * <p>Beside them are bounds that no real document comes near, so they are not settings: a DOCX holds at most 1,000
 * zip entries (a Word file has a few dozen), no part inflates past 100 times its compressed size once past a
 * megabyte (Apache POI's bound; text and markup deflate 3 to 15 times, a zip bomb about 1,000), no XML tag is
 * longer than a megabyte, no page of a PDF shows more than 100,000 characters (a page of 4-point type holds about
 * 30,000), and a PDF runs at most 10,000 drawing operations for each page it may have (a form drawn within a form
 * drawn within a form shows nothing and costs time).
 *
 * @param maxChars       the characters of the text; HEXAFLOW_DOCUMENT_MAX_CHARS
 * @param maxPages       a PDF's pages; HEXAFLOW_DOCUMENT_MAX_PAGES
 * @param maxInflatedMb  the megabytes a DOCX's or a PDF's compressed parts inflate to;
 *                       HEXAFLOW_DOCUMENT_MAX_INFLATED_MB
 */
public record DocumentLimits(int maxChars, int maxPages, int maxInflatedMb) {

    /**
     * 4,000,000 characters (the most a jinja2 prompt may be, about the million tokens of the largest context
     * windows; as a string, 8 MB at most), 2,000 pages (a long book; at 2,000 characters a page, the character
     * bound), 100 MB inflated (the markup of a DOCX is 5 to 20 times its text).
     */
    public static final DocumentLimits DEFAULTS = new DocumentLimits(4_000_000, 2_000, 100);

    static final int MAX_ZIP_ENTRIES = 1_000;
    static final int MAX_INFLATION_RATIO = 100;
    static final long RATIO_GRACE_BYTES = 1024 * 1024;
    static final int MAX_MARKUP_BYTES = 1024 * 1024;
    static final int MAX_CHARS_PER_PAGE = 100_000;
    static final int OPERATIONS_PER_PAGE = 10_000;

    public DocumentLimits {
        if (maxChars < 1 || maxPages < 1 || maxInflatedMb < 1) {
            throw new IllegalArgumentException("document limits must be at least 1, were " + maxChars + " characters, "
                    + maxPages + " pages, " + maxInflatedMb + " MB");
        }
    }

    long maxInflatedBytes() {
        return maxInflatedMb * 1024L * 1024;
    }

    long maxOperations() {
        return (long) maxPages * OPERATIONS_PER_PAGE;
    }

    ExtractionException textTooLong() {
        return refused("The document's text is longer than " + number(maxChars) + " characters, the most Hexaflow"
                + " extracts from one document (HEXAFLOW_DOCUMENT_MAX_CHARS).");
    }

    ExtractionException tooManyPages() {
        return refused("The PDF has more than " + number(maxPages) + " pages, the most Hexaflow reads in one"
                + " document (HEXAFLOW_DOCUMENT_MAX_PAGES).");
    }

    ExtractionException inflatesTooMuch(String what) {
        return refused(what + " to more than " + number(maxInflatedMb) + " MB, the most Hexaflow unpacks from one"
                + " document (HEXAFLOW_DOCUMENT_MAX_INFLATED_MB).");
    }

    ExtractionException tooManyOperations() {
        return refused("The PDF's pages run more than " + number(maxOperations()) + " drawing operations, the most"
                + " Hexaflow runs for one document (" + number(OPERATIONS_PER_PAGE) + " for each page"
                + " HEXAFLOW_DOCUMENT_MAX_PAGES allows).");
    }

    static ExtractionException bomb(String what) {
        return refused(what + " to more than " + MAX_INFLATION_RATIO + " times its compressed size, which only a zip"
                + " bomb does.");
    }

    static ExtractionException tooManyEntries() {
        return refused("The DOCX file holds more than " + number(MAX_ZIP_ENTRIES) + " zip entries; a Word document"
                + " holds a few dozen.");
    }

    static ExtractionException markupTooLong() {
        return refused("The DOCX file's word/document.xml has markup longer than 1 MB, which no Word document"
                + " has.");
    }

    static ExtractionException pageTooFull() {
        return refused("A page of the PDF shows more than " + number(MAX_CHARS_PER_PAGE) + " characters, more than"
                + " any page of text holds.");
    }

    static String number(long value) {
        return String.format(Locale.ROOT, "%,d", value);
    }

    private static ExtractionException refused(String message) {
        return new ExtractionException(message, null);
    }
}
