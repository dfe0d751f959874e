package dev.hexaflow.app.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hexaflow.adapters.nodes.fakes.FakeHttpTarget;
import dev.hexaflow.adapters.nodes.fakes.FakeModelServer;
import dev.hexaflow.app.EngineConfiguration;
import dev.hexaflow.app.Engines;
import dev.hexaflow.application.workflow.engine.RunListener;
import dev.hexaflow.application.workflow.engine.RunRequest;
import dev.hexaflow.application.workflow.engine.WorkflowEngine;
import dev.hexaflow.domain.workflow.FileValue;
import dev.hexaflow.domain.workflow.RunStatus;
import dev.hexaflow.domain.workflow.Workflow;
import dev.hexaflow.domain.workflow.WorkflowRun;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.apache.pdfbox.pdmodel.PDPage;
import org.apache.pdfbox.pdmodel.PDPageContentStream;
import org.apache.pdfbox.pdmodel.font.PDType1Font;
import org.apache.pdfbox.pdmodel.font.Standard14Fonts;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/** document-extractor on files served over loopback; question-classifier and parameter-extractor on a fake model. */
class DocumentAndModelNodesTest {

    static final FakeHttpTarget FILES = new FakeHttpTarget();
    static final FakeModelServer MODEL = new FakeModelServer();
    /** Files are served on loopback, which the operator allows here as an operator would. */
    static final WorkflowEngine ENGINE = Engines.standard(EngineConfiguration.fromEnvironment(
            Map.of("HEXAFLOW_OUTBOUND_ALLOW", "127.0.0.1")).withLlm(MODEL.baseUrl(), null));

    @AfterAll
    static void stop() {
        FILES.close();
        MODEL.close();
    }

    private static WorkflowRun extract(String name, String contentType, byte[] bytes) {
        String url = FILES.serve(name, contentType, bytes);
        FileValue file = new FileValue("f1", "document", "remote_url", url, null, name,
                name.substring(name.lastIndexOf('.')), contentType, bytes.length, url);
        Workflow workflow = Dsl.workflow("""
                - {id: start, data: {type: start, title: Start, variables: [{variable: doc, type: file}]}}
                - {id: x, data: {type: document-extractor, title: X, variable_selector: [start, doc]}}
                - {id: end, data: {type: end, title: End, outputs: [{variable: text, value_selector: [x, text]}]}}
                """, """
                - {source: start, target: x}
                - {source: x, target: end}
                """);
        return ENGINE.run(ENGINE.prepare(workflow), RunRequest.of(workflow, "u", Map.of("doc", file)),
                RunListener.NONE);
    }

    @Test
    void textMarkdownAndHtmlComeBackAsTheyAre() {
        assertThat(extract("a.txt", "text/plain", "plain é".getBytes(StandardCharsets.UTF_8)).outputs())
                .containsEntry("text", "plain é");
        assertThat(extract("b.html", "text/html", "<p>Hi</p>".getBytes(StandardCharsets.UTF_8)).outputs())
                .containsEntry("text", "<p>Hi</p>");
    }

    @Test
    void jsonIsReindentedAndCsvBecomesAMarkdownTable() {
        assertThat(extract("c.json", "application/json", "{\"a\":[1,2],\"b\":\"é\"}".getBytes(StandardCharsets.UTF_8))
                .outputs()).containsEntry("text", "{\n  \"a\": [\n    1,\n    2\n  ],\n  \"b\": \"é\"\n}");
        assertThat(extract("d.csv", "text/csv", "name,age\nAda,36\n\"Lin, K\",7\n".getBytes(StandardCharsets.UTF_8))
                .outputs()).containsEntry("text", "| name | age |\n| --- | --- |\n| Ada | 36 |\n| Lin, K | 7 |");
    }

    @Test
    void docxAndPdfTextIsRead() throws Exception {
        ByteArrayOutputStream docx = new ByteArrayOutputStream();
        try (ZipOutputStream zip = new ZipOutputStream(docx)) {
            zip.putNextEntry(new ZipEntry("word/document.xml"));
            zip.write(("<w:document xmlns:w=\"http://schemas.openxmlformats.org/wordprocessingml/2006/main\"><w:body>"
                    + "<w:p><w:r><w:t>First</w:t></w:r><w:r><w:tab/><w:t>line</w:t></w:r></w:p>"
                    + "<w:p><w:r><w:t>Second</w:t></w:r></w:p></w:body></w:document>").getBytes(StandardCharsets.UTF_8));
        }
        ByteArrayOutputStream pdf = new ByteArrayOutputStream();
        try (PDDocument document = new PDDocument()) {
            PDPage page = new PDPage();
            document.addPage(page);
            try (PDPageContentStream content = new PDPageContentStream(document, page)) {
                content.beginText();
                content.setFont(new PDType1Font(Standard14Fonts.FontName.HELVETICA), 12);
                content.newLineAtOffset(72, 700);
                content.showText("Hello from a PDF");
                content.endText();
            }
            document.save(pdf);
        }

        assertThat(extract("e.docx", "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
                docx.toByteArray()).outputs()).containsEntry("text", "First\tline\nSecond");
        assertThat((String) extract("f.pdf", "application/pdf", pdf.toByteArray()).outputs().get("text"))
                .contains("Hello from a PDF");
    }

    @Test
    void anUnsupportedTypeOrAMissingFileFailsTheNodeClearly() {
        WorkflowRun zip = extract("g.zip", "application/zip", new byte[] {1, 2});
        FileValue gone = new FileValue("f2", "document", "remote_url", FILES.url("/status/404"), null, "h.txt",
                ".txt", "text/plain", 1, null);
        Workflow workflow = Dsl.workflow("""
                - {id: start, data: {type: start, title: Start, variables: [{variable: doc, type: file}]}}
                - {id: x, data: {type: document-extractor, title: X, variable_selector: [start, doc]}}
                """, "- {source: start, target: x}");
        WorkflowRun missing = ENGINE.run(ENGINE.prepare(workflow), RunRequest.of(workflow, "u", Map.of("doc", gone)),
                RunListener.NONE);

        assertThat(zip.status()).isEqualTo(RunStatus.FAILED);
        assertThat(zip.error()).isEqualTo("Unsupported MIME type: application/zip");
        assertThat(missing.status()).isEqualTo(RunStatus.FAILED);
        assertThat(missing.error()).startsWith("Error downloading file: 404");
    }

    private static Workflow classifier() {
        return Dsl.workflow("""
                - {id: start, data: {type: start, title: Start, variables: [{variable: q, type: text-input}]}}
                - id: qc
                  data:
                    type: question-classifier
                    title: QC
                    model: {provider: openai, name: gpt-4o-mini, mode: chat}
                    query_variable_selector: [start, q]
                    classes: [{id: '1', name: billing}, {id: '2', name: technical}]
                - {id: e1, data: {type: end, title: E1, outputs: [{variable: route, value_selector: [qc, class_name]}]}}
                - {id: e2, data: {type: end, title: E2, outputs: [{variable: tech, value_selector: [qc, class_id]}]}}
                """, """
                - {source: start, target: qc}
                - {source: qc, sourceHandle: '1', target: e1}
                - {source: qc, sourceHandle: '2', target: e2}
                """);
    }

    @Test
    void theClassifierFollowsTheEdgesOfTheClassTheModelChose() {
        MODEL.answer(FakeModelServer.Script.text("Sure: {\"category_id\": \"2\", \"category_name\": \"technical\"}",
                20, 8));
        Workflow workflow = classifier();

        WorkflowRun run = ENGINE.run(ENGINE.prepare(workflow), RunRequest.of(workflow, "u",
                Map.of("q", "my server is down")), RunListener.NONE);

        assertThat(run.outputs()).isEqualTo(Map.of("tech", "2"));
        assertThat(run.totalTokens()).isEqualTo(28);
        String sent = MODEL.requests().get(MODEL.requests().size() - 1).toString();
        assertThat(sent).contains("billing", "technical", "my server is down");
    }

    @Test
    void anAnswerNamingNoClassTakesTheFirstClass() {
        MODEL.answer(FakeModelServer.Script.text("I cannot tell.", 1, 1));
        Workflow workflow = classifier();

        WorkflowRun run = ENGINE.run(ENGINE.prepare(workflow), RunRequest.of(workflow, "u", Map.of("q", "?")),
                RunListener.NONE);

        assertThat(run.outputs()).isEqualTo(Map.of("route", "billing"));
    }

    private static Workflow extractor(String mode) {
        return Dsl.workflow("""
                - {id: start, data: {type: start, title: Start, variables: [{variable: q, type: paragraph}]}}
                - id: px
                  data:
                    type: parameter-extractor
                    title: PX
                    model: {provider: openai, name: gpt-4o-mini, mode: chat}
                    query: [start, q]
                    reasoning_mode: %s
                    parameters:
                      - {name: city, type: string, description: the city, required: true}
                      - {name: days, type: number, description: how many days, required: false}
                      - {name: unit, type: select, options: [metric, imperial], required: false}
                - id: end
                  data:
                    type: end
                    title: End
                    outputs:
                      - {variable: city, value_selector: [px, city]}
                      - {variable: days, value_selector: [px, days]}
                      - {variable: ok, value_selector: [px, __is_success]}
                      - {variable: why, value_selector: [px, __reason]}
                """.formatted(mode), """
                - {source: start, target: px}
                - {source: px, target: end}
                """);
    }

    @Test
    void theExtractorReadsAToolCallAndChecksTypes() {
        MODEL.answer(FakeModelServer.Script.toolCall("extract_parameters", "{\"city\": \"Oslo\", \"days\": \"3\"}"));
        Workflow workflow = extractor("function_call");

        WorkflowRun run = ENGINE.run(ENGINE.prepare(workflow), RunRequest.of(workflow, "u",
                Map.of("q", "weather in Oslo for 3 days")), RunListener.NONE);

        assertThat(run.outputs()).containsEntry("city", "Oslo").containsEntry("days", 3L).containsEntry("ok", 1L);
        assertThat(MODEL.requests().get(MODEL.requests().size() - 1).get("tools").get(0).get("function")
                .get("name").asText()).isEqualTo("extract_parameters");
    }

    @Test
    void theExtractorInPromptModeReportsAMissingRequiredParameter() {
        MODEL.answer(FakeModelServer.Script.text("```json\n{\"days\": 2, \"unit\": \"kelvin\"}\n```", 1, 1));
        Workflow workflow = extractor("prompt");

        WorkflowRun run = ENGINE.run(ENGINE.prepare(workflow), RunRequest.of(workflow, "u",
                Map.of("q", "two days")), RunListener.NONE);

        assertThat(run.outputs()).containsEntry("city", "").containsEntry("days", 2L).containsEntry("ok", 0L);
        assertThat(run.outputs()).containsEntry("why", "Required parameter city is missing");
        assertThat(MODEL.requests().get(MODEL.requests().size() - 1).has("tools")).isFalse();
    }

    @Test
    void theListOperatorSortsFiltersAndSlicesFilesByAttribute() {
        Workflow workflow = Dsl.workflow("""
                - {id: start, data: {type: start, title: Start, variables: [{variable: docs, type: file-list}]}}
                - id: ops
                  data:
                    type: list-operator
                    title: Ops
                    variable: [start, docs]
                    filter_by: {enabled: true, conditions: [{key: size, comparison_operator: '≥', value: '10'}]}
                    order_by: {enabled: true, key: name, value: desc}
                    limit: {enabled: true, size: 2}
                - {id: end, data: {type: end, title: End, outputs: [{variable: first, value_selector: [ops, first_record, name]}]}}
                """, """
                - {source: start, target: ops}
                - {source: ops, target: end}
                """);
        List<FileValue> files = List.of(file("a.txt", 5), file("b.txt", 10), file("c.txt", 20), file("d.txt", 30));

        WorkflowRun run = ENGINE.run(ENGINE.prepare(workflow), RunRequest.of(workflow, "u", Map.of("docs", files)),
                RunListener.NONE);

        assertThat(run.outputs()).isEqualTo(Map.of("first", "d.txt"));
    }

    private static FileValue file(String name, long size) {
        return new FileValue(name, "document", "remote_url", "http://h/" + name, null, name, ".txt", "text/plain",
                size, null);
    }
}
