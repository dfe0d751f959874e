package dev.hexaflow.adapters.nodes.document;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.core.io.JsonEOFException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.hexaflow.workflow.port.out.DocumentTextExtractor;
import dev.hexaflow.domain.text.CsvText;
import dev.hexaflow.domain.workflow.Values;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Document text as Dify's extractor gives it: txt, md, html and xml as their text; json re-indented as Python
 * writes it; csv as a markdown table; docx as its paragraphs, one per line; pdf as its text (PDFBox). Each within
 * the {@link DocumentLimits}: the text is bounded as it is produced, whatever the file's size on the wire, and a
 * file that cannot be read is refused in one sentence, Dify's where Dify has one, never a library's exception.
 */
public final class PdfBoxDocumentTextExtractor implements DocumentTextExtractor {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String TEXT_FAILED = "Failed to decode plain text file";
    private static final String JSON_FAILED = "Failed to decode or parse JSON file: ";
    private static final String CSV_FAILED = "Failed to extract text from CSV: ";

    private final DocumentLimits limits;

    public PdfBoxDocumentTextExtractor() {
        this(DocumentLimits.DEFAULTS);
    }

    public PdfBoxDocumentTextExtractor(DocumentLimits limits) {
        this.limits = limits;
    }

    @Override
    public String extract(byte[] content, String extension, String mimeType) {
        String kind = extension != null && !extension.isBlank() ? byExtension(extension) : byMimeType(mimeType);
        return switch (kind) {
            case "text" -> text(content);
            case "json" -> json(content);
            case "csv" -> csv(content);
            case "docx" -> DocxText.extract(content, limits);
            case "pdf" -> PdfText.extract(content, limits);
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

    /** The file as it is: its characters are counted while it is checked, and it is decoded only if they fit. */
    private String text(byte[] content) {
        if (utf8Chars(content, TEXT_FAILED + ": ") > limits.maxChars()) {
            throw limits.textTooLong();
        }
        return new String(content, StandardCharsets.UTF_8);
    }

    /**
     * Checks that the bytes are UTF-8, decoding them a piece at a time, and answers how many characters they make.
     * Python's {@code bytes.decode("utf-8")} refuses what this refuses.
     */
    private static long utf8Chars(byte[] content, String failed) {
        CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT);
        ByteBuffer in = ByteBuffer.wrap(content);
        CharBuffer out = CharBuffer.allocate(8192);
        long chars = 0;
        while (true) {
            CoderResult result = decoder.decode(in, out, true);
            if (result.isError()) {
                throw new ExtractionException(failed + "it is not UTF-8 text (byte " + DocumentLimits.number(
                        in.position() + 1L) + " of " + DocumentLimits.number(content.length) + " is not).", null);
            }
            chars += out.position();
            out.clear();
            if (result.isUnderflow()) {
                decoder.flush(out);
                return chars + out.position();
            }
        }
    }

    private static String utf8(byte[] content, String failed) {
        utf8Chars(content, failed);
        return new String(content, StandardCharsets.UTF_8);
    }

    /**
     * As Python's {@code json.dumps(json.loads(text), indent=2, ensure_ascii=False)}: one value and nothing after
     * it, written indented within the bound (indentation grows with depth, so short JSON can make long text).
     */
    private String json(byte[] content) {
        String text = utf8(content, JSON_FAILED);
        Object value;
        try (JsonParser parser = JSON.createParser(text)) {
            if (parser.nextToken() == null) {
                throw new ExtractionException(JSON_FAILED + "the file holds no JSON.", null);
            }
            value = Values.normalize(JSON.readValue(parser, Object.class));
            if (parser.nextToken() != null) {
                throw new ExtractionException(JSON_FAILED + "more text follows the JSON at "
                        + place(parser.currentTokenLocation()) + ".", null);
            }
        } catch (JsonEOFException e) {
            throw new ExtractionException(JSON_FAILED + "the JSON ends before it is complete ("
                    + place(e.getLocation()) + ").", e);
        } catch (StreamConstraintsException e) {
            throw new ExtractionException(JSON_FAILED + "the JSON nests too deeply, or holds too long a string or"
                    + " number, at " + place(e.getLocation()) + ".", e);
        } catch (JsonProcessingException e) {
            throw new ExtractionException(JSON_FAILED + "the JSON is not valid at " + place(e.getLocation()) + ".", e);
        } catch (IOException e) {
            throw new ExtractionException(JSON_FAILED + "the JSON cannot be read.", e);
        }
        BoundedText indented = new BoundedText(limits);
        writeIndented(indented, value, 0);
        return indented.toString();
    }

    private static String place(JsonLocation location) {
        return location == null ? "an unknown place"
                : "line " + location.getLineNr() + ", column " + location.getColumnNr();
    }

    /** Python's json.dumps with indent=2, the scalars and keys as {@link Values#pythonJson} writes them. */
    private static void writeIndented(BoundedText out, Object value, int depth) {
        if (value instanceof Map<?, ?> map && !map.isEmpty()) {
            out.append("{\n");
            int i = 0;
            for (Map.Entry<?, ?> entry : map.entrySet()) {
                out.repeat("  ", depth + 1).append(Values.pythonJson(String.valueOf(entry.getKey()))).append(": ");
                writeIndented(out, entry.getValue(), depth + 1);
                out.append(++i < map.size() ? ",\n" : "\n");
            }
            out.repeat("  ", depth).append('}');
        } else if (value instanceof List<?> list && !list.isEmpty()) {
            out.append("[\n");
            for (int i = 0; i < list.size(); i++) {
                out.repeat("  ", depth + 1);
                writeIndented(out, list.get(i), depth + 1);
                out.append(i + 1 < list.size() ? ",\n" : "\n");
            }
            out.repeat("  ", depth).append(']');
        } else {
            out.append(Values.pythonJson(value));
        }
    }

    /** A markdown table, the first row its header, written row by row as the rows are read, within the bound. */
    private String csv(byte[] content) {
        String text = utf8(content, CSV_FAILED);
        BoundedText table = new BoundedText(limits);
        boolean[] header = {true};
        try {
            CsvText.rows(text, row -> {
                writeRow(table, row.cells());
                if (header[0]) {
                    writeRow(table, Collections.nCopies(row.cells().size(), "---"));
                    header[0] = false;
                }
            });
        } catch (CsvText.CsvException e) {
            throw new ExtractionException(CSV_FAILED + e.getMessage() + " (line " + e.line() + ").", e);
        }
        return table.toString().strip();
    }

    /** Python's {@code "| " + " | ".join(row) + " |\n"}, a cell at a time. */
    private static void writeRow(BoundedText table, List<String> cells) {
        table.append("| ");
        for (int i = 0; i < cells.size(); i++) {
            table.append(i == 0 ? "" : " | ").append(cells.get(i));
        }
        table.append(" |\n");
    }
}
