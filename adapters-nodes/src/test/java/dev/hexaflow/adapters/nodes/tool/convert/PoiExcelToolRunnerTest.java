package dev.hexaflow.adapters.nodes.tool.convert;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hexaflow.adapters.nodes.fakes.StopSwitch;
import dev.hexaflow.domain.tool.ToolMessage;
import dev.hexaflow.domain.tool.ToolProviderType;
import dev.hexaflow.domain.tool.ToolRef;
import dev.hexaflow.domain.workflow.FileValue;
import dev.hexaflow.workflow.port.out.ToolRunner.ToolException;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.LocalDateTime;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.poi.hssf.usermodel.HSSFWorkbook;
import org.apache.poi.ss.usermodel.CellStyle;
import org.apache.poi.ss.usermodel.Row;
import org.apache.poi.ss.usermodel.Sheet;
import org.apache.poi.ss.usermodel.Workbook;
import org.apache.poi.xssf.usermodel.XSSFWorkbook;
import org.junit.jupiter.api.Test;

/** Workbooks made with POI here, read by the tool, and the tool's workbooks read back with POI. */
class PoiExcelToolRunnerTest {

    private final Map<String, byte[]> stored = new HashMap<>();
    private PoiExcelToolRunner runner = new PoiExcelToolRunner((file, stop) -> stored.get(file.id()),
            ConversionLimits.DEFAULTS);

    private List<ToolMessage> run(String tool, Object... pairs) {
        Map<String, Object> arguments = new HashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            arguments.put((String) pairs[i], pairs[i + 1]);
        }
        return runner.run(new ToolRef(ToolProviderType.PLUGIN, "qiangxinglin/excel_tools/excel_tools", tool),
                arguments, new StopSwitch());
    }

    private String json(String name, byte[] content) {
        stored.put(name, content);
        List<ToolMessage> messages = run("excel2json", "file", new FileValue(name, "document", "local_file", null,
                name, name, name.substring(name.lastIndexOf('.')), "application/octet-stream", content.length,
                null));
        return ((ToolMessage.Text) messages.get(0)).text();
    }

    private static byte[] people(Workbook workbook, boolean twoSheets) throws Exception {
        Sheet sheet = workbook.createSheet("People");
        CellStyle date = workbook.createCellStyle();
        date.setDataFormat(workbook.createDataFormat().getFormat("yyyy/m/d"));
        Row header = sheet.createRow(0);
        for (String name : List.of("Name", "Age", "Date", "Name", "Ok")) {
            header.createCell(header.getPhysicalNumberOfCells()).setCellValue(name);
        }
        Row john = sheet.createRow(1);
        john.createCell(0).setCellValue("Jöhn/Doe");
        john.createCell(1).setCellValue(18);
        john.createCell(2).setCellValue(LocalDateTime.of(2020, 2, 20, 0, 0));
        john.getCell(2).setCellStyle(date);
        john.createCell(3).setCellValue(1.5);
        john.createCell(4).setCellValue(true);
        if (twoSheets) {
            workbook.createSheet("Empty");
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        workbook.write(out);
        workbook.close();
        return out.toByteArray();
    }

    @Test
    void aSheetIsCompactRecordsOfItsCellsAsText() throws Exception {
        String expected = "[{\"Name\":\"Jöhn/Doe\",\"Age\":\"18\",\"Date\":\"2020-02-20 00:00:00\",\"Name.1\":\"1.5\","
                + "\"Ok\":\"True\"}]";
        assertThat(json("people.xlsx", people(new XSSFWorkbook(), false))).isEqualTo(expected);
        assertThat(json("people.xls", people(new HSSFWorkbook(), false))).isEqualTo(expected);
        assertThat(json("people.csv", "a,b\n1,\n".getBytes(StandardCharsets.UTF_8)))
                .isEqualTo("[{\"a\":\"1\",\"b\":null}]");
    }

    @Test
    void severalSheetsAreAnObjectIndentedAsPythonIndents() throws Exception {
        assertThat(json("two.xlsx", people(new XSSFWorkbook(), true))).isEqualTo("""
                {
                  "People": [
                    {
                      "Name": "Jöhn/Doe",
                      "Age": "18",
                      "Date": "2020-02-20 00:00:00",
                      "Name.1": "1.5",
                      "Ok": "True"
                    }
                  ],
                  "Empty": []
                }""");
    }

    @Test
    void aFileThatIsNoWorkbookOrTooLargeOrTooLongFails() throws Exception {
        assertThatThrownBy(() -> json("bad.xlsx", "not a workbook".getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(ToolException.class).hasMessageStartingWith("Error processing Excel file: ");
        assertThatThrownBy(() -> run("excel2json")).hasMessage("The parameter file is required");
        byte[] workbook = people(new XSSFWorkbook(), false);
        runner = new PoiExcelToolRunner((file, stop) -> stored.get(file.id()), new ConversionLimits(100, 100_000, 5,
                1, 1_000_000));
        assertThatThrownBy(() -> json("rows.xlsx", workbook))
                .hasMessage("The tables have more than 1 rows, more than this tool converts");
        runner = new PoiExcelToolRunner((file, stop) -> stored.get(file.id()), new ConversionLimits(100, 100, 5,
                100, 1_000_000));
        assertThatThrownBy(() -> json("big.xlsx", workbook)).hasMessageStartingWith("The file file has ")
                .hasMessageEndingWith("bytes, more than the 100 this tool reads");
    }

    @Test
    void json2excelMakesASheetPerKeyWithTheRecordsKeysAsColumns() throws Exception {
        List<ToolMessage> messages = run("json2excel", "json_str",
                "{\"Staff\": [{\"name\": \"Ada\", \"age\": 36}, {\"name\": \"Bo\", \"team\": \"x\", \"lead\": true}],"
                        + " \"[format]\": {}}", "filename", "My Staff");

        assertThat(messages.get(0)).isEqualTo(new ToolMessage.Text("Excel file 'My_Staff.xlsx' generated successfully"));
        ToolMessage.Blob blob = (ToolMessage.Blob) messages.get(1);
        assertThat(blob.filename()).isEqualTo("My_Staff.xlsx");
        try (XSSFWorkbook workbook = new XSSFWorkbook(new ByteArrayInputStream(blob.content()))) {
            Sheet sheet = workbook.getSheet("Staff");
            assertThat(sheet.getRow(0).getCell(2).getStringCellValue()).isEqualTo("team");
            assertThat(sheet.getRow(1).getCell(1).getNumericCellValue()).isEqualTo(36.0);
            assertThat(sheet.getRow(2).getCell(3).getBooleanCellValue()).isTrue();
        }
        assertThatThrownBy(() -> run("json2excel", "json_str", "{\"a\": 1}"))
                .hasMessage("Error converting data to Excel: Value for sheet 'a' must be a list of records.");
        assertThatThrownBy(() -> run("json2excel", "json_str", "{")).hasMessageStartingWith("Invalid JSON format: ");
    }
}
