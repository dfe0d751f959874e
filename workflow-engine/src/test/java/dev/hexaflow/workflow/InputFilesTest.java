package dev.hexaflow.workflow;

import static dev.hexaflow.workflow.TestWorkflows.workflow;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hexaflow.workflow.engine.InputFiles;
import dev.hexaflow.workflow.engine.InvalidInputsException;
import dev.hexaflow.domain.workflow.FileValue;
import dev.hexaflow.domain.workflow.Workflow;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class InputFilesTest {

    private static final Workflow FORM = workflow().startWith(List.of(
            Map.of("variable", "doc", "type", "file", "allowed_file_types", List.of("document"),
                    "allowed_file_upload_methods", List.of("remote_url", "local_file")),
            Map.of("variable", "pics", "type", "file-list", "allowed_file_types", List.of("image"),
                    "allowed_file_upload_methods", List.of("local_file")))).build();

    private static final FileValue UPLOAD = new FileValue("up-1", "image", "local_file", null, "up-1", "cat.png",
            ".png", "image/png", 1234, "/files/up-1");

    private static final InputFiles.Uploads ADAS_UPLOADS = (id, user) ->
            id.equals("up-1") && user.equals("ada") ? Optional.of(UPLOAD) : Optional.empty();

    @Test
    void aRemoteFileBecomesAFileWithItsNameExtensionAndMediaType() {
        Map<String, Object> inputs = InputFiles.resolve(FORM.inputFields(), Map.of("doc", Map.of("type", "document",
                "transfer_method", "remote_url", "url", "https://example.com/files/report.pdf?x=1")), "ada",
                ADAS_UPLOADS);

        FileValue file = (FileValue) inputs.get("doc");
        assertThat(file.filename()).isEqualTo("report.pdf");
        assertThat(file.extension()).isEqualTo(".pdf");
        assertThat(file.mimeType()).isEqualTo("application/pdf");
        assertThat(file.transferMethod()).isEqualTo("remote_url");
    }

    @Test
    void anUploadIsFoundForItsOwnUserOnly() {
        Map<String, Object> mine = InputFiles.resolve(FORM.inputFields(), Map.of("pics", List.of(Map.of("type", "image",
                "transfer_method", "local_file", "upload_file_id", "up-1"))), "ada", ADAS_UPLOADS);

        assertThat((List<?>) mine.get("pics")).extracting(f -> ((FileValue) f).filename()).containsExactly("cat.png");
        assertThatThrownBy(() -> InputFiles.resolve(FORM.inputFields(), Map.of("pics", List.of(Map.of("type", "image",
                "transfer_method", "local_file", "upload_file_id", "up-1"))), "bob", ADAS_UPLOADS))
                .isInstanceOf(InvalidInputsException.class).hasMessage("pics: no upload up-1 of this user");
    }

    @Test
    void mappingsThatBreakTheRulesAreRefusedNamingTheField() {
        assertThatThrownBy(() -> resolve(Map.of("type", "document", "transfer_method", "remote_url",
                "url", "https://e.com/a.pdf", "upload_file_id", "up-1")))
                .hasMessage("doc: give url or upload_file_id, not both");
        assertThatThrownBy(() -> resolve(Map.of("type", "image", "transfer_method", "remote_url",
                "url", "https://e.com/a.png"))).hasMessageContaining("file type image is not allowed here");
        assertThatThrownBy(() -> resolve(Map.of("type", "spreadsheet", "transfer_method", "remote_url",
                "url", "https://e.com/a.xls"))).hasMessageContaining("file type must be one of");
        assertThatThrownBy(() -> resolve(Map.of("type", "document", "transfer_method", "remote_url")))
                .hasMessage("doc: a remote_url file needs its url");
        assertThatThrownBy(() -> resolve(Map.of("type", "document", "transfer_method", "remote_url",
                "url", "file:///etc/passwd"))).hasMessage("doc: the url must be http or https");
        assertThatThrownBy(() -> resolve(Map.of("type", "document", "transfer_method", "carrier_pigeon")))
                .hasMessage("doc: transfer_method must be remote_url or local_file");
        assertThatThrownBy(() -> InputFiles.resolve(FORM.inputFields(), Map.of("pics", List.of(Map.of("type", "image",
                "transfer_method", "remote_url", "url", "https://e.com/a.png"))), "ada", ADAS_UPLOADS))
                .hasMessage("pics: transfer method remote_url is not allowed here");
    }

    private static Map<String, Object> resolve(Map<String, Object> mapping) {
        return InputFiles.resolve(FORM.inputFields(), Map.of("doc", mapping), "ada", ADAS_UPLOADS);
    }
}
