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
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.pdfbox.Loader;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.apache.pdfbox.text.PDFTextStripper;
import org.apache.poi.ss.usermodel.CellType;
import org.apache.poi.xslf.usermodel.XMLSlideShow;
import org.apache.poi.xslf.usermodel.XSLFSlide;
import org.apache.poi.xssf.usermodel.XSSFSheet;
import org.apache.poi.xssf.usermodel.XSSFWorkbook;
import org.apache.poi.xwpf.usermodel.XWPFDocument;
import org.apache.poi.xwpf.usermodel.XWPFParagraph;
import org.apache.poi.xwpf.usermodel.XWPFTable;
import org.junit.jupiter.api.Test;

/** Each file is opened again with POI or PDFBox and its content read back. */
class PoiMdExporterToolRunnerTest {

    static final String REPORT = """
            # Quarterly report

            Sales **grew** in every *region*.

            - North
            - South
              1. Coast
            
            ## Figures

            | Region | Sales |
            |--------|-------|
            | North  | 1200  |
            | South, coast | 950.5 |

            ```
            total = 2150.5
            ```
            """;

    private final Map<String, byte[]> stored = new HashMap<>();
    private PoiMdExporterToolRunner runner = new PoiMdExporterToolRunner((file, stop) -> stored.get(file.id()),
            ConversionLimits.DEFAULTS);

    private List<ToolMessage> run(String tool, Object... pairs) {
        Map<String, Object> arguments = new HashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            arguments.put((String) pairs[i], pairs[i + 1]);
        }
        return runner.run(new ToolRef(ToolProviderType.PLUGIN, "bowenliang123/md_exporter/md_exporter", tool),
                arguments, new StopSwitch());
    }

    private ToolMessage.Blob blob(String tool, Object... pairs) {
        List<ToolMessage> messages = run(tool, pairs);
        assertThat(messages).hasSize(1);
        return (ToolMessage.Blob) messages.get(0);
    }

    private static FileValue file(String id, long size) {
        return new FileValue(id, "document", "local_file", null, id, id, ".bin", "application/octet-stream", size,
                null);
    }

    @Test
    void describesThePluginsSixToolsUnderItsProviderId() {
        ToolRef docx = new ToolRef(ToolProviderType.PLUGIN, "bowenliang123/md_exporter/md_exporter", "md_to_docx");
        assertThat(runner.describe(docx)).hasValueSatisfying(d -> assertThat(d.inputSchema().toString())
                .contains("md_text", "docx_template_file", "output_filename"));
        assertThat(runner.runs(new ToolRef(ToolProviderType.PLUGIN, "md_exporter", "md_to_pdf"))).isTrue();
        assertThat(runner.runs(new ToolRef(ToolProviderType.PLUGIN, "bowenliang123/md_exporter/md_exporter",
                "md_to_latex"))).isFalse();
        assertThat(runner.runs(new ToolRef(ToolProviderType.API, "bowenliang123/md_exporter/md_exporter",
                "md_to_pdf"))).isFalse();
        assertThat(PoiMdExporterToolRunner.labels()).contains("bowenliang123/md_exporter/md_exporter/md_to_csv")
                .hasSize(6);
    }

    @Test
    void docxHoldsTheHeadingsParagraphsListAndTable() throws Exception {
        ToolMessage.Blob blob = blob("md_to_docx", "md_text", REPORT, "output_filename", "report");

        assertThat(blob.mimeType()).isEqualTo(PoiMdExporterToolRunner.DOCX);
        assertThat(blob.filename()).isEqualTo("report.docx");
        try (XWPFDocument document = new XWPFDocument(new ByteArrayInputStream(blob.content()))) {
            List<String> texts = document.getParagraphs().stream().map(XWPFParagraph::getText).toList();
            assertThat(texts).contains("Quarterly report", "Sales grew in every region.", "\u2022 North",
                    "1. Coast", "Figures");
            assertThat(document.getParagraphs().get(0).getStyle()).isEqualTo("Heading1");
            assertThat(document.getParagraphs().get(1).getRuns().get(1).isBold()).isTrue();
            XWPFTable table = document.getTables().get(0);
            assertThat(table.getRow(0).getCell(1).getText()).isEqualTo("Sales");
            assertThat(table.getRow(2).getCell(0).getText()).isEqualTo("South, coast");
            assertThat(document.getParagraphs().stream().filter(p -> p.getText().contains("total = 2150.5"))
                    .findFirst()).hasValueSatisfying(p -> assertThat(p.getRuns().get(0).getFontFamily())
                            .isEqualTo("Courier New"));
        }
    }

    @Test
    void docxTakesATemplatesStylesAndDropsItsText() throws Exception {
        ByteArrayOutputStream template = new ByteArrayOutputStream();
        try (XWPFDocument document = new XWPFDocument()) {
            document.createParagraph().createRun().setText("Template body");
            document.write(template);
        }
        stored.put("tpl", template.toByteArray());

        ToolMessage.Blob blob = blob("md_to_docx", "md_text", "# Title\n\nText", "docx_template_file",
                file("tpl", template.size()));

        try (XWPFDocument document = new XWPFDocument(new ByteArrayInputStream(blob.content()))) {
            assertThat(document.getParagraphs()).extracting(XWPFParagraph::getText).containsExactly("Title", "Text");
        }
        stored.put("bad", "not a word file".getBytes(StandardCharsets.UTF_8));
        assertThatThrownBy(() -> run("md_to_docx", "md_text", "x", "docx_template_file", List.of(file("bad", 15))))
                .isInstanceOf(ToolException.class).hasMessage("Not a valid file for docx template file");
    }

    @Test
    void pdfShowsTheTextInAStandardFontAndMarksWhatItCannotShow() throws Exception {
        ToolMessage.Blob blob = blob("md_to_pdf", "md_text", "```markdown\n" + REPORT + "\n中文\n```");

        assertThat(blob.mimeType()).isEqualTo("application/pdf");
        assertThat(blob.filename()).isNull();
        try (PDDocument document = Loader.loadPDF(blob.content())) {
            String text = new PDFTextStripper().getText(document);
            assertThat(text).contains("Quarterly report", "Sales grew in every region.", "Region", "South, coast",
                    "950.5", "total = 2150.5", "??");
        }
    }

    @Test
    void pdfOfALongTextRunsOverPagesUpToTheLimit() throws Exception {
        String longText = "A line of a long text that fills the page.\n\n".repeat(400);
        try (PDDocument document = Loader.loadPDF(blob("md_to_pdf", "md_text", longText).content())) {
            assertThat(document.getNumberOfPages()).isGreaterThan(5);
        }
        runner = new PoiMdExporterToolRunner((file, stop) -> null, new ConversionLimits(1_000_000, 1000, 3, 100,
                10_000_000));
        assertThatThrownBy(() -> run("md_to_pdf", "md_text", longText)).isInstanceOf(ToolException.class)
                .hasMessage("The PDF would have more than 3 pages, more than this tool makes");
    }

    @Test
    void xlsxMakesASheetPerTableNamedByTheHeadings() throws Exception {
        String tables = "# People\n\n| Name | Age |\n|---|---|\n| Ada | 36 |\n\n## Cities\n\n| City |\n|---|\n| Oslo |";
        ToolMessage.Blob blob = blob("md_to_xlsx", "md_text", tables, "force_text_value", "true");

        assertThat(blob.mimeType()).isEqualTo(PoiMdExporterToolRunner.XLSX);
        try (XSSFWorkbook workbook = new XSSFWorkbook(new ByteArrayInputStream(blob.content()))) {
            assertThat(workbook.getSheetName(0)).isEqualTo("People");
            assertThat(workbook.getSheetName(1)).isEqualTo("Cities");
            XSSFSheet people = workbook.getSheetAt(0);
            assertThat(people.getRow(0).getCell(1).getStringCellValue()).isEqualTo("Age");
            assertThat(people.getRow(1).getCell(1).getCellType()).isEqualTo(CellType.STRING);
            assertThat(workbook.getSheetAt(1).getRow(1).getCell(0).getStringCellValue()).isEqualTo("Oslo");
        }
        try (XSSFWorkbook workbook = new XSSFWorkbook(new ByteArrayInputStream(blob("md_to_xlsx", "md_text", tables,
                "force_text_value", "false").content()))) {
            assertThat(workbook.getSheetAt(0).getRow(1).getCell(1).getNumericCellValue()).isEqualTo(36.0);
        }
    }

    @Test
    void pptxMakesASlidePerHeadingAtTheSlideLevel() throws Exception {
        String slides = "# Deck\n\n## One\n\n- first\n- second\n\n## Two\n\nPlain words\n\n---\n\n| A | B |\n|---|---|\n| 1 | 2 |";
        ToolMessage.Blob blob = blob("md_to_pptx", "md_text", slides, "output_filename", "deck.pptx");

        assertThat(blob.filename()).isEqualTo("deck.pptx");
        try (XMLSlideShow show = new XMLSlideShow(new ByteArrayInputStream(blob.content()))) {
            List<XSLFSlide> all = show.getSlides();
            assertThat(all).hasSize(4);
            assertThat(all.get(0).getPlaceholder(0).getText()).isEqualTo("Deck");
            assertThat(all.get(1).getPlaceholder(0).getText()).isEqualTo("One");
            assertThat(all.get(1).getPlaceholder(1).getText()).contains("first", "second");
            assertThat(all.get(2).getPlaceholder(1).getText()).contains("Plain words");
            assertThat(all.get(3).getShapes().stream().filter(s -> s instanceof org.apache.poi.xslf.usermodel
                    .XSLFTable).count()).isEqualTo(1);
        }
    }

    @Test
    void htmlIsTheMarkdownsHtmlWithRawHtmlEscaped() {
        ToolMessage.Blob blob = blob("md_to_html", "md_text", REPORT + "\n<script>alert(1)</script>\n");

        String html = new String(blob.content(), StandardCharsets.UTF_8);
        assertThat(blob.mimeType()).isEqualTo("text/html");
        assertThat(html).contains("<h1>Quarterly report</h1>", "<strong>grew</strong>", "<th>Region</th>",
                "<td>South, coast</td>", "&lt;script&gt;").doesNotContain("<script>");
    }

    @Test
    void csvMakesAFilePerTableQuotedWhereACellNeedsIt() {
        List<ToolMessage> messages = run("md_to_csv", "md_text", REPORT + "\n| X |\n|---|\n| \"q\" |",
                "output_filename", "out");

        assertThat(messages).hasSize(2);
        ToolMessage.Blob first = (ToolMessage.Blob) messages.get(0);
        assertThat(first.filename()).isEqualTo("out_1.csv");
        assertThat(first.mimeType()).isEqualTo("text/csv");
        assertThat(new String(first.content(), StandardCharsets.UTF_8))
                .isEqualTo("Region,Sales\nNorth,1200\n\"South, coast\",950.5\n");
        assertThat(new String(((ToolMessage.Blob) messages.get(1)).content(), StandardCharsets.UTF_8))
                .isEqualTo("X\n\"\"\"q\"\"\"\n");
    }

    @Test
    void aFailedConversionIsTextWhereThePluginAnswersTextAndAFailureElsewhere() {
        assertThat(run("md_to_csv", "md_text", "no table here")).containsExactly(new ToolMessage.Text(
                "Failed to convert markdown text to CSV file, error: Failed to parse markdown to tables, "
                        + "exception: No tables found"));
        assertThatThrownBy(() -> run("md_to_docx", "md_text", "  ")).isInstanceOf(ToolException.class)
                .hasMessage("Empty input md_text");
        assertThatThrownBy(() -> run("md_to_html")).hasMessage("Empty input md_text");
    }

    @Test
    void everyLimitIsHeldWithASentence() {
        runner = new PoiMdExporterToolRunner((file, stop) -> stored.get(file.id()), new ConversionLimits(100, 10,
                5, 2, 2_000));
        assertThatThrownBy(() -> run("md_to_html", "md_text", "x".repeat(101))).isInstanceOf(ToolException.class)
                .hasMessage("The parameter md_text has 101 characters, more than the 100 this tool reads");
        assertThatThrownBy(() -> run("md_to_csv", "md_text", "| A |\n|---|\n| 1 |\n| 2 |"))
                .hasMessage("The tables have more than 2 rows, more than this tool converts");
        assertThatThrownBy(() -> run("md_to_docx", "md_text", "# Big")).hasMessageStartingWith("The result has ")
                .hasMessageEndingWith("bytes, more than the 2000 this tool answers");
        stored.put("tpl", new byte[11]);
        assertThatThrownBy(() -> run("md_to_pptx", "md_text", "# x", "pptx_template_file", file("tpl", 11)))
                .hasMessage("The file pptx_template_file has 11 bytes, more than the 10 this tool reads");
        assertThatThrownBy(() -> run("md_to_pptx", "md_text", "# x", "pptx_template_file", file("tpl", 1)))
                .hasMessage("The file pptx_template_file has 11 bytes, more than the 10 this tool reads");
    }
}
