package dev.hexaflow.adapters.nodes.document;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.hexaflow.application.workflow.port.out.DocumentTextExtractor;
import dev.hexaflow.domain.text.CsvText;
import dev.hexaflow.domain.workflow.Values;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;
import javax.xml.stream.XMLInputFactory;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;
import org.apache.pdfbox.Loader;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.apache.pdfbox.text.PDFTextStripper;

/**
 * Document text as Dify's extractor gives it: txt, md, html and xml as their text; json re-indented as Python
 * writes it; csv as a markdown table; docx as its paragraphs, one per line; pdf as its text (PDFBox).
 */
public final class PdfBoxDocumentTextExtractor implements DocumentTextExtractor {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Override
    public String extract(byte[] content, String extension, String mimeType) {
        String kind = extension != null && !extension.isBlank() ? byExtension(extension) : byMimeType(mimeType);
        return switch (kind) {
            case "text" -> utf8(content, "plain text file");
            case "json" -> json(content);
            case "csv" -> csv(content);
            case "docx" -> docx(content);
            case "pdf" -> pdf(content);
            default -> throw new ExtractionException(kind, null);
        };
    }

    private static String byExtension(String extension) {
        return switch (extension.toLowerCase(Locale.ROOT)) {
            case ".txt", ".markdown", ".md", ".html", ".htm", ".xml" -> "text";
            case ".json" -> "json";
            case ".csv" -> "csv";
            case ".docx" -> "docx";
            case ".pdf" -> "pdf";
            default -> "Unsupported Extension Type: " + extension;
        };
    }

    private static String byMimeType(String mimeType) {
        String type = mimeType == null ? "" : mimeType.split(";", 2)[0].strip().toLowerCase(Locale.ROOT);
        if (type.startsWith("text/plain") || List.of("text/html", "text/htm", "text/markdown", "text/xml")
                .contains(type)) {
            return "text";
        }
        return switch (type) {
            case "application/json" -> "json";
            case "text/csv" -> "csv";
            case "application/vnd.openxmlformats-officedocument.wordprocessingml.document" -> "docx";
            case "application/pdf" -> "pdf";
            default -> "Unsupported MIME type: " + mimeType;
        };
    }

    private static String utf8(byte[] content, String what) {
        try {
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(content)).toString();
        } catch (CharacterCodingException e) {
            throw new ExtractionException("Failed to decode " + what, e);
        }
    }

    private static String json(byte[] content) {
        try {
            Object value = JSON.readValue(utf8(content, "JSON file"), Object.class);
            return Values.pythonJsonIndented(Values.normalize(value));
        } catch (JsonProcessingException e) {
            throw new ExtractionException("Failed to decode or parse JSON file: " + e.getOriginalMessage(), e);
        }
    }

    private static String csv(byte[] content) {
        List<CsvText.Row> rows;
        try {
            rows = CsvText.rows(utf8(content, "CSV file"));
        } catch (CsvText.CsvException e) {
            throw new ExtractionException("Failed to extract text from CSV: line " + e.line() + ": " + e.getMessage(),
                    e);
        }
        if (rows.isEmpty()) {
            return "";
        }
        StringBuilder table = new StringBuilder();
        table.append("| ").append(String.join(" | ", rows.get(0).cells())).append(" |\n");
        table.append("| ").append(String.join(" | ", java.util.Collections.nCopies(rows.get(0).cells().size(),
                "---"))).append(" |\n");
        for (CsvText.Row row : rows.subList(1, rows.size())) {
            table.append("| ").append(String.join(" | ", row.cells())).append(" |\n");
        }
        return table.toString().strip();
    }

    /** word/document.xml: each w:p a line, w:t its text, w:tab a tab, w:br a line break. */
    private static String docx(byte[] content) {
        try (ZipInputStream zip = new ZipInputStream(new ByteArrayInputStream(content))) {
            ZipEntry entry;
            while ((entry = zip.getNextEntry()) != null) {
                if (entry.getName().equals("word/document.xml")) {
                    return paragraphs(zip);
                }
            }
            throw new ExtractionException("Failed to extract text from DOC/DOCX: no word/document.xml inside", null);
        } catch (IOException | XMLStreamException e) {
            throw new ExtractionException("Failed to extract text from DOC/DOCX: " + e.getMessage(), e);
        }
    }

    private static String paragraphs(InputStream xml) throws XMLStreamException {
        XMLInputFactory factory = XMLInputFactory.newFactory();
        factory.setProperty(XMLInputFactory.SUPPORT_DTD, false);
        factory.setProperty(XMLInputFactory.IS_SUPPORTING_EXTERNAL_ENTITIES, false);
        XMLStreamReader reader = factory.createXMLStreamReader(xml);
        StringBuilder text = new StringBuilder();
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
                text.append(reader.getText());
            }
        }
        return text.toString();
    }

    private static String pdf(byte[] content) {
        try (PDDocument document = Loader.loadPDF(content)) {
            return new PDFTextStripper().getText(document);
        } catch (IOException e) {
            throw new ExtractionException("Failed to extract text from PDF: " + e.getMessage(), e);
        }
    }
}
