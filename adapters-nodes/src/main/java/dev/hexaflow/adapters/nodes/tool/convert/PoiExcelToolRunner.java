package dev.hexaflow.adapters.nodes.tool.convert;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.util.DefaultIndenter;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.core.util.Separators;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.hexaflow.domain.tool.ToolDescription;
import dev.hexaflow.domain.tool.ToolMessage;
import dev.hexaflow.domain.tool.ToolProviderType;
import dev.hexaflow.domain.tool.ToolRef;
import dev.hexaflow.domain.workflow.FileValue;
import dev.hexaflow.workflow.engine.StopSignal;
import dev.hexaflow.workflow.port.out.FileContents;
import dev.hexaflow.workflow.port.out.ToolRunner;
import java.io.IOException;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The plugin {@code qiangxinglin/excel_tools}: {@code excel2json} reads the workbook given as {@code file} (xlsx,
 * xls, or a CSV file) into the text the plugin answers, a sheet's records as compact JSON, or, for a workbook of
 * several sheets, an object of each sheet's records indented by two as Python's {@code json.dumps} indents it;
 * {@code json2excel} makes a workbook of {@code json_str} (see {@link RecordsWorkbook}).
 */
public final class PoiExcelToolRunner implements ToolRunner {

    static final String PROVIDER = "qiangxinglin/excel_tools/excel_tools";

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final DefaultPrettyPrinter PYTHON_INDENT = new DefaultPrettyPrinter(Separators
            .createDefaultInstance().withObjectFieldValueSpacing(Separators.Spacing.AFTER)
            .withObjectEmptySeparator("").withArrayEmptySeparator(""))
            .withObjectIndenter(new DefaultIndenter("  ", "\n")).withArrayIndenter(new DefaultIndenter("  ", "\n"));
    private static final Map<String, ToolDescription> TOOLS = Map.of(
            "excel2json", tool("excel2json", "Convert Excel to Json.", "file"),
            "json2excel", tool("json2excel", "Convert Json to Excel.", "json_str"));

    private final ToolFiles files;
    private final ConversionLimits limits;

    public PoiExcelToolRunner(FileContents files, ConversionLimits limits) {
        this.files = new ToolFiles(files, limits);
        this.limits = limits;
    }

    /** The tools it runs, as {@code provider/tool}. */
    public static List<String> labels() {
        return List.of(PROVIDER + "/excel2json", PROVIDER + "/json2excel");
    }

    @Override
    public Optional<ToolDescription> describe(ToolRef tool) {
        boolean ours = (tool.type() == ToolProviderType.BUILTIN || tool.type() == ToolProviderType.PLUGIN)
                && (tool.provider().equals(PROVIDER) || tool.provider().equals("excel_tools"));
        return Optional.ofNullable(ours ? TOOLS.get(tool.tool()) : null)
                .map(known -> new ToolDescription(tool, known.description(), known.inputSchema()));
    }

    @Override
    public List<ToolMessage> run(ToolRef tool, Map<String, Object> arguments, StopSignal stop) {
        if (tool.tool().equals("json2excel")) {
            return RecordsWorkbook.run(arguments, limits);
        }
        FileValue file = ToolFiles.fileOf("file", arguments.get("file"))
                .orElseThrow(() -> new ToolException("The parameter file is required"));
        byte[] content = files.read("file", file, stop);
        Map<String, List<Map<String, String>>> sheets;
        try {
            sheets = WorkbookRecords.read(content, isCsv(file), limits);
        } catch (ConversionLimits.Exceeded e) {
            throw e;
        } catch (IOException | RuntimeException e) {
            throw new ToolException("Error processing Excel file: " + describe(e), e);
        }
        String text = sheets.size() > 1 ? pretty(sheets) : compact(sheets.values().iterator().next());
        limits.outputSize(text.length());
        return List.of(new ToolMessage.Text(text));
    }

    private static boolean isCsv(FileValue file) {
        String name = file.filename() == null ? "" : file.filename().toLowerCase(Locale.ROOT);
        return ".csv".equalsIgnoreCase(file.extension()) || name.endsWith(".csv")
                || "text/csv".equalsIgnoreCase(file.mimeType());
    }

    /** What failed, without the library's class names. */
    private static String describe(Exception e) {
        String message = e.getMessage();
        return message == null || message.isBlank() ? "the file is not a workbook" : message;
    }

    private static String compact(Object value) {
        try {
            return JSON.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    static String pretty(Object value) {
        try {
            return JSON.writer(PYTHON_INDENT).writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private static ToolDescription tool(String name, String description, String parameter) {
        Map<String, Object> properties = parameter.equals("file")
                ? Map.of("file", Map.of("type", "object"))
                : Map.of("json_str", Map.of("type", "string"), "filename", Map.of("type", "string"));
        return new ToolDescription(new ToolRef(ToolProviderType.PLUGIN, PROVIDER, name), description,
                Map.of("type", "object", "properties", properties, "required", List.of(parameter)));
    }
}
