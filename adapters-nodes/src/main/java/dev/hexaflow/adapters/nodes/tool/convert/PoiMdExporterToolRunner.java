package dev.hexaflow.adapters.nodes.tool.convert;

import dev.hexaflow.adapters.nodes.tool.convert.MarkdownBlocks.Block;
import dev.hexaflow.domain.tool.ToolDescription;
import dev.hexaflow.domain.tool.ToolMessage;
import dev.hexaflow.domain.tool.ToolProviderType;
import dev.hexaflow.domain.tool.ToolRef;
import dev.hexaflow.workflow.engine.StopSignal;
import dev.hexaflow.workflow.port.out.FileContents;
import dev.hexaflow.workflow.port.out.ToolRunner;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * The plugin {@code bowenliang123/md_exporter}'s tools md_to_docx, md_to_pdf, md_to_xlsx, md_to_pptx, md_to_html and
 * md_to_csv, with its parameters ({@code md_text}, {@code output_filename}, {@code force_text_value}, the
 * {@code docx_template_file} and {@code pptx_template_file}), each answering the file as the plugin does: a blob
 * with its MIME type, named {@code output_filename} with the extension added when given (md_to_csv: one file per
 * table, {@code name_1.csv}, {@code name_2.csv} ...). Where the plugin answers a failure as text (pdf, xlsx, csv)
 * so does this; the others fail the node. Word, PowerPoint and Excel files are Apache POI's, the PDF is PDFBox's
 * (see {@link PdfWriter} for what it draws), HTML is CommonMark's with raw HTML escaped.
 */
public final class PoiMdExporterToolRunner implements ToolRunner {

    static final String PROVIDER = "bowenliang123/md_exporter/md_exporter";
    static final String DOCX = "application/vnd.openxmlformats-officedocument.wordprocessingml.document";
    static final String XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";
    static final String PPTX = "application/vnd.openxmlformats-officedocument.presentationml.presentation";

    private static final Map<String, ToolDescription> TOOLS = new LinkedHashMap<>();

    static {
        tool("md_to_docx", "Generate DOCX file from Markdown text", "docx_template_file");
        tool("md_to_pdf", "Generate PDF file from Markdown text", null);
        tool("md_to_xlsx", "Generate XLSX file from Markdown tables", "force_text_value");
        tool("md_to_pptx", "Generate PPTX file from Markdown text", "pptx_template_file");
        tool("md_to_html", "Generate HTML file from Markdown text", null);
        tool("md_to_csv", "Generate CSV file from Markdown tables", null);
    }

    private final ToolFiles files;
    private final ConversionLimits limits;

    public PoiMdExporterToolRunner(FileContents files, ConversionLimits limits) {
        this.files = new ToolFiles(files, limits);
        this.limits = limits;
    }

    /** The tools it runs, as {@code provider/tool}. */
    public static List<String> labels() {
        return TOOLS.keySet().stream().map(tool -> PROVIDER + "/" + tool).toList();
    }

    @Override
    public Optional<ToolDescription> describe(ToolRef tool) {
        boolean ours = (tool.type() == ToolProviderType.BUILTIN || tool.type() == ToolProviderType.PLUGIN)
                && (tool.provider().equals(PROVIDER) || tool.provider().equals("md_exporter"));
        return Optional.ofNullable(ours ? TOOLS.get(tool.tool()) : null)
                .map(known -> new ToolDescription(tool, known.description(), known.inputSchema()));
    }

    @Override
    public List<ToolMessage> run(ToolRef tool, Map<String, Object> arguments, StopSignal stop) {
        String format = tool.tool().substring("md_to_".length());
        String markdown = MarkdownBlocks.prepared(limits.text("md_text", text(arguments, "md_text")));
        String name = text(arguments, "output_filename").strip();
        try {
            return switch (format) {
                case "docx" -> List.of(blob(withTemplate(arguments, "docx_template_file", stop,
                        template -> DocxWriter.write(checked(markdown), template)), DOCX, name, ".docx"));
                case "pptx" -> List.of(blob(withTemplate(arguments, "pptx_template_file", stop,
                        template -> PptxWriter.write(checked(markdown), template)), PPTX, name, ".pptx"));
                case "html" -> List.of(blob(HtmlWriter.write(markdown).getBytes(StandardCharsets.UTF_8),
                        "text/html", name, ".html"));
                case "pdf" -> List.of(blob(PdfWriter.write(checked(markdown), limits.maxPages()),
                        "application/pdf", name, ".pdf"));
                case "xlsx" -> List.of(blob(SheetWriter.xlsx(checked(markdown),
                        !text(arguments, "force_text_value").strip().equalsIgnoreCase("false")), XLSX, name,
                        ".xlsx"));
                default -> csv(checked(markdown), name);
            };
        } catch (ToolException e) {
            if (List.of("pdf", "xlsx", "csv").contains(format) && !(e instanceof ConversionLimits.Exceeded)) {
                return List.of(new ToolMessage.Text("Failed to convert markdown text to "
                        + format.toUpperCase(Locale.ROOT) + " file, error: " + e.getMessage()));
            }
            throw e;
        }
    }

    private List<Block> checked(String markdown) {
        List<Block> blocks = MarkdownBlocks.blocks(markdown);
        limits.rows(MarkdownBlocks.tables(blocks).stream().mapToInt(table -> table.rows().size() + 1).sum());
        return blocks;
    }

    private byte[] withTemplate(Map<String, Object> arguments, String parameter, StopSignal stop,
            Function<byte[], byte[]> write) {
        byte[] template = ToolFiles.fileOf(parameter, arguments.get(parameter))
                .map(file -> files.read(parameter, file, stop)).orElse(null);
        return write.apply(template);
    }

    private List<ToolMessage> csv(List<Block> blocks, String name) {
        List<String> tables = SheetWriter.csv(blocks);
        List<ToolMessage> messages = new ArrayList<>();
        for (int i = 0; i < tables.size(); i++) {
            String each = name.isEmpty() || tables.size() == 1 ? name : name + "_" + (i + 1) + ".csv";
            messages.add(blob(tables.get(i).getBytes(StandardCharsets.UTF_8), "text/csv", each, ".csv"));
        }
        return messages;
    }

    /** md_exporter's get_meta_data: the given name with the extension added when it lacks it, else no name. */
    private ToolMessage blob(byte[] content, String mimeType, String name, String extension) {
        String filename = name.isEmpty() ? null
                : name.toLowerCase(Locale.ROOT).endsWith(extension) ? name : name + extension;
        return new ToolMessage.Blob(limits.output(content), mimeType, filename);
    }

    private static String text(Map<String, Object> arguments, String name) {
        Object value = arguments.get(name);
        return value == null ? "" : value instanceof String s ? s : dev.hexaflow.domain.workflow.Values.text(value);
    }

    private static void tool(String name, String description, String extra) {
        Map<String, Object> properties = new LinkedHashMap<>();
        properties.put("md_text", Map.of("type", "string"));
        if (extra != null) {
            properties.put(extra, Map.of("type", extra.endsWith("_file") ? "object" : "string"));
        }
        properties.put("output_filename", Map.of("type", "string"));
        TOOLS.put(name, new ToolDescription(new ToolRef(ToolProviderType.PLUGIN, PROVIDER, name), description,
                Map.of("type", "object", "properties", properties, "required", List.of("md_text"))));
    }
}
