package dev.hexaflow.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hexaflow.adapters.nodes.document.DocumentLimits;
import dev.hexaflow.adapters.nodes.document.TestDocuments;
import dev.hexaflow.adapters.nodes.fakes.FakeHttpTarget;
import dev.hexaflow.domain.workflow.FileValue;
import dev.hexaflow.domain.workflow.RunStatus;
import dev.hexaflow.domain.workflow.Workflow;
import dev.hexaflow.domain.workflow.WorkflowRun;
import dev.hexaflow.engine.EngineConfiguration;
import dev.hexaflow.engine.Engines;
import dev.hexaflow.engine.InvalidEngineConfigurationException;
import dev.hexaflow.workflow.engine.RunListener;
import dev.hexaflow.workflow.engine.RunRequest;
import dev.hexaflow.workflow.engine.WorkflowEngine;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * The document-extractor node on a file given by URL that is small on the wire and huge inside: the node fails
 * with Dify's TextExtractionError and a sentence naming the bound, and the bound is the engine's setting.
 */
class DocumentExtractorBoundsTest {

    static final FakeHttpTarget FILES = new FakeHttpTarget();
    static final Map<String, String> LOOPBACK = Map.of("HEXAFLOW_OUTBOUND_ALLOW", "127.0.0.1");

    @AfterAll
    static void stop() {
        FILES.close();
    }

    /** start (a file) → document-extractor going on with an empty text on failure → end (its error). */
    private static Workflow reader() {
        return Dsl.workflow("""
                - {id: start, data: {type: start, title: Start, variables: [{variable: doc, type: file}]}}
                - id: read
                  data:
                    type: document-extractor
                    title: Read
                    variable_selector: [start, doc]
                    error_strategy: default-value
                    default_value: [{key: text, type: string, value: ''}]
                - id: end
                  data:
                    type: end
                    title: End
                    outputs:
                      - {variable: type, value_selector: [read, error_type]}
                      - {variable: message, value_selector: [read, error_message]}
                """, """
                - {source: start, target: read}
                - {source: read, target: end}
                """);
    }

    private static WorkflowRun read(WorkflowEngine engine, String name, String mimeType, byte[] bytes) {
        String url = FILES.serve(name, mimeType, bytes);
        FileValue file = new FileValue(name, "document", "remote_url", url, null, name,
                name.substring(name.lastIndexOf('.')), mimeType, bytes.length, null);
        Workflow workflow = reader();
        return engine.run(engine.prepare(workflow), RunRequest.of(workflow, "u", Map.of("doc", file)),
                RunListener.NONE);
    }

    @Test
    void aDocxThatInflatesAThousandfoldFailsTheNodeWithTextExtractionError() {
        WorkflowEngine engine = Engines.standard(EngineConfiguration.fromEnvironment(LOOPBACK));
        byte[] bomb = TestDocuments.docxRepeating("", TestDocuments.paragraph("a".repeat(1000)), 60_000);

        WorkflowRun run = read(engine, "bomb.docx", TestDocuments.DOCX_TYPE, bomb);

        assertThat(run.status()).isEqualTo(RunStatus.PARTIAL_SUCCEEDED);
        assertThat(run.outputs()).isEqualTo(Map.of("type", "TextExtractionError", "message",
                "The DOCX file's word/document.xml inflates to more than 100 times its compressed size, which only"
                        + " a zip bomb does."));
    }

    @Test
    void theCharacterBoundIsTheEnginesSetting() {
        Map<String, String> env = new java.util.HashMap<>(LOOPBACK);
        env.put("HEXAFLOW_DOCUMENT_MAX_CHARS", "1000");
        WorkflowEngine engine = Engines.standard(EngineConfiguration.fromEnvironment(env));

        WorkflowRun run = read(engine, "long.txt", "text/plain", TestDocuments.utf8("a".repeat(1001)));

        assertThat(run.outputs()).isEqualTo(Map.of("type", "TextExtractionError", "message",
                "The document's text is longer than 1,000 characters, the most Hexaflow extracts from one document"
                        + " (HEXAFLOW_DOCUMENT_MAX_CHARS)."));
    }

    @Test
    void aDocumentBoundThatIsNotAWholeNumberStopsTheStartNamingIt() {
        assertThatThrownBy(() -> EngineConfiguration.fromEnvironment(Map.of("HEXAFLOW_DOCUMENT_MAX_PAGES", "ten")))
                .isInstanceOf(InvalidEngineConfigurationException.class)
                .hasMessage("HEXAFLOW_DOCUMENT_MAX_PAGES must be a whole number above 0, was 'ten'");
        assertThat(EngineConfiguration.fromEnvironment(Map.of("HEXAFLOW_DOCUMENT_MAX_INFLATED_MB", "20"))
                .documents()).isEqualTo(new DocumentLimits(4_000_000, 2_000, 20));
    }
}
