package dev.hexaflow.adapters.nodes.document;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.apache.pdfbox.cos.COSName;
import org.apache.pdfbox.cos.COSStream;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.apache.pdfbox.pdmodel.PDPage;
import org.apache.pdfbox.pdmodel.PDPageContentStream;
import org.apache.pdfbox.pdmodel.PDResources;
import org.apache.pdfbox.pdmodel.common.PDRectangle;
import org.apache.pdfbox.pdmodel.font.PDType1Font;
import org.apache.pdfbox.pdmodel.font.Standard14Fonts;
import org.apache.pdfbox.pdmodel.graphics.form.PDFormXObject;
import org.apache.pdfbox.util.Matrix;

/**
 * Small files that are large inside, built as a visitor would build them: a DOCX whose document.xml inflates to
 * far more than the file, a PDF that draws one form over and over, a PDF whose one content stream inflates to far
 * more than the file. Shared with app's tests (the test-jar).
 */
public final class TestDocuments {

    public static final String DOCX_TYPE = "application/vnd.openxmlformats-officedocument.wordprocessingml.document";
    private static final String W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main";

    private TestDocuments() {
    }

    /** A DOCX whose word/document.xml is the given body inside Word's document and body elements. */
    public static byte[] docx(String body) {
        return docxRepeating(body, "", 0);
    }

    /**
     * A DOCX whose word/document.xml holds {@code head}, then {@code repeated} written {@code times} times, streamed
     * into the zip so that the test never holds the inflated text.
     */
    public static byte[] docxRepeating(String head, String repeated, long times) {
        ByteArrayOutputStream docx = new ByteArrayOutputStream();
        try (ZipOutputStream zip = new ZipOutputStream(docx)) {
            zip.putNextEntry(new ZipEntry("[Content_Types].xml"));
            zip.write(utf8("<Types xmlns=\"http://schemas.openxmlformats.org/package/2006/content-types\"/>"));
            zip.putNextEntry(new ZipEntry("word/document.xml"));
            zip.write(utf8("<w:document xmlns:w=\"" + W + "\"><w:body>" + head));
            writeRepeated(zip, utf8(repeated), times);
            zip.write(utf8("</w:body></w:document>"));
            zip.closeEntry();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return docx.toByteArray();
    }

    /** A zip with {@code entries} small entries before word/document.xml, which holds one paragraph. */
    public static byte[] docxWithEntries(int entries) {
        ByteArrayOutputStream docx = new ByteArrayOutputStream();
        try (ZipOutputStream zip = new ZipOutputStream(docx)) {
            for (int i = 0; i < entries; i++) {
                zip.putNextEntry(new ZipEntry("word/media/part" + i + ".xml"));
                zip.write(utf8("<x/>"));
            }
            zip.putNextEntry(new ZipEntry("word/document.xml"));
            zip.write(utf8("<w:document xmlns:w=\"" + W + "\"><w:body><w:p><w:r><w:t>Hi</w:t></w:r></w:p>"
                    + "</w:body></w:document>"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return docx.toByteArray();
    }

    /** {@code length} letters drawn from a seeded random source: text that deflates about twice, not a thousandfold. */
    public static String letters(int length, long seed) {
        java.util.Random random = new java.util.Random(seed);
        char[] letters = new char[length];
        for (int i = 0; i < length; i++) {
            letters[i] = (char) ('a' + random.nextInt(26));
        }
        return new String(letters);
    }

    /** One paragraph of text, as Word writes it. */
    public static String paragraph(String text) {
        return "<w:p><w:r><w:t>" + text + "</w:t></w:r></w:p>";
    }

    /**
     * A PDF of {@code pages} pages, each drawing {@code draws} times one form XObject that shows {@code text} once:
     * the file holds the text once and a short "q cm /Fm1 Do Q" per draw.
     */
    public static byte[] pdfDrawingAForm(int pages, int draws, String text) {
        try (PDDocument document = new PDDocument()) {
            PDFormXObject form = new PDFormXObject(document);
            form.setBBox(PDRectangle.LETTER);
            PDResources formResources = new PDResources();
            formResources.put(COSName.getPDFName("F1"), new PDType1Font(Standard14Fonts.FontName.HELVETICA));
            form.setResources(formResources);
            try (OutputStream content = form.getContentStream().createOutputStream(COSName.FLATE_DECODE)) {
                content.write(utf8("BT /F1 12 Tf 72 700 Td (" + text + ") Tj ET\n"));
            }
            for (int p = 0; p < pages; p++) {
                PDPage page = new PDPage();
                document.addPage(page);
                try (PDPageContentStream stream = new PDPageContentStream(document, page)) {
                    for (int i = 0; i < draws; i++) {
                        // A line lower each time, 45 lines a page, so no draw hides another as a duplicate.
                        stream.saveGraphicsState();
                        stream.transform(Matrix.getTranslateInstance(0, -14f * (i % 45)));
                        stream.drawForm(form);
                        stream.restoreGraphicsState();
                    }
                }
            }
            return save(document);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A PDF of {@code pages} empty pages. */
    public static byte[] pdfOfEmptyPages(int pages) {
        try (PDDocument document = new PDDocument()) {
            for (int p = 0; p < pages; p++) {
                document.addPage(new PDPage());
            }
            return save(document);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A one-page PDF whose content stream, Flate-compressed, is {@code repeated} written {@code times} times. */
    public static byte[] pdfWithContent(String repeated, long times) {
        return pdfWithContent(out -> writeRepeated(out, utf8(repeated), times));
    }

    /** A one-page PDF whose content stream, Flate-compressed, is these bytes. */
    public static byte[] pdfWithContent(byte[] content) {
        return pdfWithContent(out -> out.write(content));
    }

    private interface Content {
        void writeTo(OutputStream out) throws IOException;
    }

    private static byte[] pdfWithContent(Content written) {
        try (PDDocument document = new PDDocument()) {
            PDPage page = new PDPage();
            document.addPage(page);
            COSStream content = document.getDocument().createCOSStream();
            try (OutputStream out = content.createOutputStream(COSName.FLATE_DECODE)) {
                written.writeTo(out);
            }
            page.getCOSObject().setItem(COSName.CONTENTS, content);
            return save(document);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * A one-page PDF whose page draws form A {@code times} times, A draws form B {@code times} times, and B is an
     * empty save and restore of the graphics state: {@code times}² operations that show nothing.
     */
    public static byte[] pdfOfNestedForms(int times) {
        try (PDDocument document = new PDDocument()) {
            PDFormXObject inner = new PDFormXObject(document);
            inner.setBBox(PDRectangle.LETTER);
            try (OutputStream content = inner.getContentStream().createOutputStream(COSName.FLATE_DECODE)) {
                content.write(utf8("q Q\n"));
            }
            PDFormXObject outer = new PDFormXObject(document);
            outer.setBBox(PDRectangle.LETTER);
            PDResources outerResources = new PDResources();
            outerResources.put(COSName.getPDFName("Fm1"), inner);
            outer.setResources(outerResources);
            try (OutputStream content = outer.getContentStream().createOutputStream(COSName.FLATE_DECODE)) {
                writeRepeated(content, utf8("/Fm1 Do\n"), times);
            }
            PDPage page = new PDPage();
            document.addPage(page);
            try (PDPageContentStream stream = new PDPageContentStream(document, page)) {
                for (int i = 0; i < times; i++) {
                    stream.drawForm(outer);
                }
            }
            return save(document);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static byte[] save(PDDocument document) throws IOException {
        ByteArrayOutputStream pdf = new ByteArrayOutputStream();
        document.save(pdf);
        return pdf.toByteArray();
    }

    private static void writeRepeated(OutputStream out, byte[] unit, long times) throws IOException {
        if (times == 0 || unit.length == 0) {
            return;
        }
        int perChunk = (int) Math.min(times, Math.max(1, 64 * 1024 / unit.length));
        byte[] chunk = new byte[perChunk * unit.length];
        for (int i = 0; i < perChunk; i++) {
            System.arraycopy(unit, 0, chunk, i * unit.length, unit.length);
        }
        long written = 0;
        while (written + perChunk <= times) {
            out.write(chunk);
            written += perChunk;
        }
        out.write(chunk, 0, (int) ((times - written) * unit.length));
    }

    public static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
