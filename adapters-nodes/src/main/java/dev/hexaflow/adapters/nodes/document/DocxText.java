package dev.hexaflow.adapters.nodes.document;

import dev.hexaflow.workflow.port.out.DocumentTextExtractor.ExtractionException;
import java.io.ByteArrayInputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;
import javax.xml.stream.XMLInputFactory;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;

/**
 * The paragraphs of a DOCX: its word/document.xml, found through the zip's central directory (so no other entry
 * is inflated), inflated as the XML parser reads it, each w:p a line, w:t its text, w:tab a tab, w:br a line
 * break. What it inflates to is counted as it inflates, against the document's bounds and the zip bomb ratio; no
 * size written in the zip is believed.
 */
final class DocxText {

    static final String FAILED = "Failed to extract text from DOC/DOCX: ";
    private static final String DOCUMENT = "word/document.xml";
    private static final String PART = "The DOCX file's " + DOCUMENT + " inflates";
    private static final int END_OF_DIRECTORY = 0x06054b50;
    private static final int ZIP64_LOCATOR = 0x07064b50;
    private static final int ZIP64_END = 0x06064b50;
    private static final int DIRECTORY_ENTRY = 0x02014b50;

    private DocxText() {
    }

    static String extract(byte[] zip, DocumentLimits limits) {
        int offset = documentOffset(zip);
        CountingInput raw = new CountingInput(new ByteArrayInputStream(zip, offset, zip.length - offset));
        BoundedText text = new BoundedText(limits);
        try (ZipInputStream entries = new ZipInputStream(raw)) {
            ZipEntry entry = entries.getNextEntry();
            if (entry == null || !entry.getName().equals(DOCUMENT)) {
                throw notADocx();
            }
            paragraphs(new InflatedInput(entries, raw, limits), text);
            return text.toString();
        } catch (IOException | IllegalArgumentException e) {
            // An entry's header cannot be read, or names it in bytes that are no text.
            throw notADocx();
        }
    }

    private static void paragraphs(InputStream xml, BoundedText text) {
        XMLInputFactory factory = XMLInputFactory.newDefaultFactory();
        factory.setProperty(XMLInputFactory.SUPPORT_DTD, false);
        factory.setProperty(XMLInputFactory.IS_SUPPORTING_EXTERNAL_ENTITIES, false);
        // Each open element is held until it closes; Word nests a few dozen deep.
        factory.setProperty("http://www.oracle.com/xml/jaxp/properties/maxElementDepth", "1000");
        try {
            XMLStreamReader reader = factory.createXMLStreamReader(xml);
            boolean inText = false;
            boolean firstParagraph = true;
            while (reader.hasNext()) {
                int event = reader.next();
                if (event == XMLStreamReader.START_ELEMENT) {
                    switch (reader.getLocalName()) {
                        case "p" -> {
                            if (!firstParagraph) {
                                text.append('\n');
                            }
                            firstParagraph = false;
                        }
                        case "t" -> inText = true;
                        case "tab" -> text.append('\t');
                        case "br" -> text.append('\n');
                        default -> { }
                    }
                } else if (event == XMLStreamReader.END_ELEMENT && reader.getLocalName().equals("t")) {
                    inText = false;
                } else if (event == XMLStreamReader.CHARACTERS && inText) {
                    // The parser hands long text over in pieces; each is counted before it is kept.
                    text.append(reader.getTextCharacters(), reader.getTextStart(), reader.getTextLength());
                }
            }
        } catch (XMLStreamException e) {
            String where = e.getLocation() == null || e.getLocation().getLineNumber() < 0 ? ""
                    : " (line " + e.getLocation().getLineNumber() + ", column " + e.getLocation().getColumnNumber()
                            + ")";
            throw new ExtractionException(FAILED + "its " + DOCUMENT + " is not well-formed XML" + where + ".", e);
        }
    }

    /**
     * Where word/document.xml's local header starts, from the central directory at the zip's end: the directory
     * is walked by its own records (the count the end record gives is not believed), and refused past the bound.
     */
    private static int documentOffset(byte[] zip) {
        try {
            return findDocument(zip);
        } catch (IndexOutOfBoundsException e) {
            // A directory record whose lengths point past the file.
            throw notADocx();
        }
    }

    private static int findDocument(byte[] zip) {
        ByteBuffer bytes = ByteBuffer.wrap(zip).order(ByteOrder.LITTLE_ENDIAN);
        int end = endOfDirectory(bytes);
        long directory = bytes.getInt(end + 16) & 0xFFFFFFFFL;
        if (directory == 0xFFFFFFFFL && end >= 20 && bytes.getInt(end - 20) == ZIP64_LOCATOR) {
            long zip64End = bytes.getLong(end - 12);
            if (zip64End < 0 || zip64End > end - 56 || bytes.getInt((int) zip64End) != ZIP64_END) {
                throw notADocx();
            }
            directory = bytes.getLong((int) zip64End + 48);
        }
        if (directory < 0 || directory > end) {
            throw notADocx();
        }
        byte[] wanted = DOCUMENT.getBytes(StandardCharsets.UTF_8);
        long found = -1;
        int entries = 0;
        int at = (int) directory;
        while (at + 46 <= end && bytes.getInt(at) == DIRECTORY_ENTRY) {
            if (++entries > DocumentLimits.MAX_ZIP_ENTRIES) {
                throw DocumentLimits.tooManyEntries();
            }
            int nameLength = bytes.getShort(at + 28) & 0xFFFF;
            int extraLength = bytes.getShort(at + 30) & 0xFFFF;
            int commentLength = bytes.getShort(at + 32) & 0xFFFF;
            int name = at + 46;
            if (name + nameLength + extraLength > end) {
                throw notADocx();
            }
            if (found < 0 && Arrays.equals(zip, name, name + nameLength, wanted, 0, wanted.length)) {
                found = bytes.getInt(at + 42) & 0xFFFFFFFFL;
                if (found == 0xFFFFFFFFL) {
                    found = zip64Offset(bytes, at, name + nameLength, extraLength);
                }
            }
            at = name + nameLength + extraLength + commentLength;
        }
        if (entries == 0) {
            throw notADocx();
        }
        if (found < 0) {
            throw new ExtractionException(FAILED + "the file holds no " + DOCUMENT + ".", null);
        }
        if (found >= directory) {
            throw notADocx();
        }
        return (int) found;
    }

    /** The end of central directory record: 22 bytes, then a comment of at most 65,535. */
    private static int endOfDirectory(ByteBuffer bytes) {
        int last = bytes.limit() - 22;
        for (int at = last; at >= 0 && at >= last - 65_535; at--) {
            if (bytes.getInt(at) == END_OF_DIRECTORY && at + 22 + (bytes.getShort(at + 20) & 0xFFFF) <= bytes.limit()) {
                return at;
            }
        }
        throw notADocx();
    }

    /** A local header offset too large for 32 bits is in the ZIP64 extra field, after the sizes that are too. */
    private static long zip64Offset(ByteBuffer bytes, int entry, int extra, int extraLength) {
        int skip = ((bytes.getInt(entry + 24) & 0xFFFFFFFFL) == 0xFFFFFFFFL ? 8 : 0)
                + ((bytes.getInt(entry + 20) & 0xFFFFFFFFL) == 0xFFFFFFFFL ? 8 : 0);
        for (int at = extra; at + 4 <= extra + extraLength; ) {
            int id = bytes.getShort(at) & 0xFFFF;
            int size = bytes.getShort(at + 2) & 0xFFFF;
            if (id == 0x0001 && skip + 8 <= size && bytes.getLong(at + 4 + skip) >= 0) {
                return bytes.getLong(at + 4 + skip);
            }
            at += 4 + size;
        }
        throw notADocx();
    }

    private static ExtractionException notADocx() {
        return new ExtractionException(FAILED + "the file is not a DOCX document (not a zip archive).", null);
    }

    /**
     * The entry's bytes as they inflate, counted against the bound and, past a megabyte, against the ratio to the
     * compressed bytes read so far; and no run of markup (from a {@code <} to its {@code >}) longer than a
     * megabyte, since the parser holds a tag with its attributes whole.
     */
    private static final class InflatedInput extends FilterInputStream {
        private final CountingInput raw;
        private final long rawStart;
        private final DocumentLimits limits;
        private long inflated;
        private boolean inMarkup;
        private int markup;

        InflatedInput(InputStream entry, CountingInput raw, DocumentLimits limits) {
            super(entry);
            this.raw = raw;
            this.rawStart = raw.count();
            this.limits = limits;
        }

        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            int n = read(one, 0, 1);
            return n < 0 ? -1 : one[0] & 0xFF;
        }

        @Override
        public int read(byte[] buffer, int offset, int length) {
            int n;
            try {
                n = super.read(buffer, offset, length);
            } catch (IOException e) {
                throw new ExtractionException(FAILED + "its " + DOCUMENT + " is damaged and cannot be unpacked.", e);
            }
            if (n <= 0) {
                return n;
            }
            inflated += n;
            if (inflated > limits.maxInflatedBytes()) {
                throw limits.inflatesTooMuch(PART);
            }
            if (inflated > DocumentLimits.RATIO_GRACE_BYTES
                    && inflated > DocumentLimits.MAX_INFLATION_RATIO * Math.max(1, raw.count() - rawStart)) {
                throw DocumentLimits.bomb(PART);
            }
            for (int i = offset; i < offset + n; i++) {
                byte b = buffer[i];
                if (b == '<') {
                    inMarkup = true;
                    markup = 0;
                } else if (b == '>') {
                    inMarkup = false;
                } else if (inMarkup && ++markup > DocumentLimits.MAX_MARKUP_BYTES) {
                    throw DocumentLimits.markupTooLong();
                }
            }
            return n;
        }

        @Override
        public long skip(long n) throws IOException {
            int chunk = (int) Math.min(Math.max(n, 0), 8192);
            return Math.max(0, read(new byte[chunk], 0, chunk));
        }
    }
}
