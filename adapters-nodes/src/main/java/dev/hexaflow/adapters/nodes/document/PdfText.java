package dev.hexaflow.adapters.nodes.document;

import dev.hexaflow.workflow.port.out.DocumentTextExtractor.ExtractionException;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.Writer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import org.apache.pdfbox.Loader;
import org.apache.pdfbox.contentstream.operator.Operator;
import org.apache.pdfbox.cos.COSArray;
import org.apache.pdfbox.cos.COSBase;
import org.apache.pdfbox.cos.COSDictionary;
import org.apache.pdfbox.cos.COSName;
import org.apache.pdfbox.cos.COSObject;
import org.apache.pdfbox.cos.COSStream;
import org.apache.pdfbox.filter.Filter;
import org.apache.pdfbox.filter.FilterFactory;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.apache.pdfbox.pdmodel.PDPage;
import org.apache.pdfbox.pdmodel.PDResources;
import org.apache.pdfbox.pdmodel.encryption.InvalidPasswordException;
import org.apache.pdfbox.pdmodel.graphics.form.PDFormXObject;
import org.apache.pdfbox.text.PDFTextStripper;
import org.apache.pdfbox.text.TextPosition;

/**
 * A PDF's text through PDFBox's stripper, within the document's bounds: its pages are counted before and as they
 * are read; every stream a page or form will have decoded (its content, its fonts, the forms it draws) is first
 * decoded once into a counter, since PDFBox decodes a stream whole into memory; the drawing operations run and the
 * characters a page shows are counted as they come; and the text is bounded as it is written.
 */
final class PdfText {

    static final String FAILED = "Failed to extract text from PDF: ";
    private static final String STREAM = "A stream of the PDF inflates";
    private static final String STREAMS = "The PDF's streams inflate";
    /** Filters that only images use: their data is never decoded for text. */
    private static final Set<COSName> IMAGE_FILTERS = Set.of(COSName.DCT_DECODE, COSName.DCT_DECODE_ABBREVIATION,
            COSName.JPX_DECODE, COSName.JBIG2_DECODE, COSName.CCITTFAX_DECODE, COSName.CCITTFAX_DECODE_ABBREVIATION);

    private PdfText() {
    }

    static String extract(byte[] content, DocumentLimits limits) {
        try (PDDocument document = Loader.loadPDF(content)) {
            if (document.getNumberOfPages() > limits.maxPages()) {
                throw limits.tooManyPages();
            }
            BoundedText text = new BoundedText(limits);
            new BoundedStripper(limits).writeText(document, new Writer() {
                @Override
                public void write(char[] chars, int start, int length) {
                    text.append(chars, start, length);
                }

                @Override
                public void flush() {
                }

                @Override
                public void close() {
                }
            });
            return text.toString();
        } catch (InvalidPasswordException e) {
            throw new ExtractionException(FAILED + "the PDF is protected by a password.", e);
        } catch (ExtractionException e) {
            throw e;
        } catch (IOException | RuntimeException e) {
            // PDFBox reports a broken file in its own terms (a missing trailer, a bad offset, a cast that fails).
            throw new ExtractionException(FAILED + "the file is not a readable PDF.", e);
        }
    }

    /** The stripper, counting pages, operations and the characters of each page, and checking streams first. */
    private static final class BoundedStripper extends PDFTextStripper {
        private final DocumentLimits limits;
        private final StreamCheck streams;
        private int pages;
        private long operations;
        private int pageChars;

        BoundedStripper(DocumentLimits limits) {
            this.limits = limits;
            this.streams = new StreamCheck(limits);
        }

        @Override
        public void processPage(PDPage page) throws IOException {
            // The page count in the file was checked; this counts the pages really there.
            if (++pages > limits.maxPages()) {
                throw limits.tooManyPages();
            }
            pageChars = 0;
            streams.check(page.getCOSObject().getItem(COSName.CONTENTS));
            PDResources resources = page.getResources();
            if (resources != null) {
                streams.check(resources.getCOSObject());
            }
            super.processPage(page);
        }

        @Override
        public void showForm(PDFormXObject form) throws IOException {
            streams.check(form.getCOSObject());
            super.showForm(form);
        }

        @Override
        protected void processOperator(Operator operator, List<COSBase> operands) throws IOException {
            if (++operations > limits.maxOperations()) {
                throw limits.tooManyOperations();
            }
            super.processOperator(operator, operands);
        }

        /** The stripper holds a page's characters until the page ends; they are counted as they come. */
        @Override
        protected void processTextPosition(TextPosition text) {
            if (++pageChars > DocumentLimits.MAX_CHARS_PER_PAGE) {
                throw DocumentLimits.pageTooFull();
            }
            super.processTextPosition(text);
        }
    }

    /**
     * Decodes each stream reachable from what is checked (images aside) once, into a counter: none may inflate past
     * the ratio, nor all of them past the bound. A stream that fails to decode is left for PDFBox to judge.
     */
    private static final class StreamCheck {
        private final DocumentLimits limits;
        private final Set<COSBase> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        private long inflated;

        StreamCheck(DocumentLimits limits) {
            this.limits = limits;
        }

        void check(COSBase start) throws IOException {
            Deque<COSBase> pending = new ArrayDeque<>();
            if (start != null) {
                pending.push(start);
            }
            while (!pending.isEmpty()) {
                COSBase item = pending.pop();
                if (item instanceof COSObject reference) {
                    item = reference.getObject();
                }
                if (item == null || !seen.add(item)) {
                    continue;
                }
                if (item instanceof COSStream stream) {
                    if (COSName.IMAGE.equals(stream.getCOSName(COSName.SUBTYPE))) {
                        continue;
                    }
                    decode(stream);
                }
                if (item instanceof COSDictionary dictionary) {
                    for (COSName key : dictionary.keySet()) {
                        if (!COSName.PARENT.equals(key)) {
                            pending.push(dictionary.getItem(key));
                        }
                    }
                } else if (item instanceof COSArray array) {
                    for (int i = 0; i < array.size(); i++) {
                        pending.push(array.get(i));
                    }
                }
            }
        }

        private void decode(COSStream stream) throws IOException {
            List<COSName> filters = filters(stream.getFilters());
            if (filters.stream().anyMatch(IMAGE_FILTERS::contains)) {
                return;
            }
            try (CountingInput raw = new CountingInput(stream.createRawInputStream())) {
                InputStream input = raw;
                for (int i = 0; i < filters.size(); i++) {
                    Filter filter = FilterFactory.INSTANCE.getFilter(filters.get(i));
                    boolean last = i == filters.size() - 1;
                    Budget output = new Budget(raw, last ? null : new ByteArrayOutputStream());
                    filter.decode(input, output, stream, i);
                    if (!last) {
                        input = new ByteArrayInputStream(output.kept.toByteArray());
                    }
                }
                if (filters.isEmpty()) {
                    raw.transferTo(new Budget(raw, null));
                }
            } catch (ExtractionException e) {
                throw e;
            } catch (IOException | RuntimeException e) {
                // A damaged stream: what it decoded was counted, and PDFBox reads it as leniently as it can.
            }
        }

        private static List<COSName> filters(COSBase filters) {
            List<COSName> names = new ArrayList<>();
            if (filters instanceof COSName name) {
                names.add(name);
            } else if (filters instanceof COSArray array) {
                for (int i = 0; i < array.size(); i++) {
                    if (array.getObject(i) instanceof COSName name) {
                        names.add(name);
                    }
                }
            }
            return names;
        }

        /** Where a filter writes: counted against the document's bound and this stream's ratio. */
        private final class Budget extends OutputStream {
            private final CountingInput raw;
            private final ByteArrayOutputStream kept;
            private long written;

            Budget(CountingInput raw, ByteArrayOutputStream kept) {
                this.raw = raw;
                this.kept = kept;
            }

            @Override
            public void write(int b) {
                write(new byte[] {(byte) b}, 0, 1);
            }

            @Override
            public void write(byte[] bytes, int offset, int length) {
                written += length;
                if (kept == null) {
                    inflated += length;
                    if (inflated > limits.maxInflatedBytes()) {
                        throw limits.inflatesTooMuch(STREAMS);
                    }
                } else if (inflated + written > limits.maxInflatedBytes()) {
                    throw limits.inflatesTooMuch(STREAMS);
                }
                if (written > DocumentLimits.RATIO_GRACE_BYTES
                        && written > DocumentLimits.MAX_INFLATION_RATIO * Math.max(1, raw.count())) {
                    throw DocumentLimits.bomb(STREAM);
                }
                if (kept != null) {
                    kept.write(bytes, offset, length);
                }
            }
        }
    }
}
