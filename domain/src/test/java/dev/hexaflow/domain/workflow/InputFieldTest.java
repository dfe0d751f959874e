package dev.hexaflow.domain.workflow;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class InputFieldTest {

    @Test
    void everyKindIsFoundByItsWireName() {
        for (InputFieldKind kind : InputFieldKind.values()) {
            assertThat(InputFieldKind.fromWireName(kind.wireName())).contains(kind);
        }
        assertThat(InputFieldKind.fromWireName("file-list")).contains(InputFieldKind.FILE_LIST);
        assertThat(InputFieldKind.fromWireName("json_object")).contains(InputFieldKind.JSON_OBJECT);
        assertThat(InputFieldKind.fromWireName("text")).isEmpty();
    }

    @Test
    void aFieldIsReadWithItsKindRulesAndDataKeptWhole() {
        Map<String, Object> data = Map.of("variable", "pics", "label", "Pictures", "type", "file-list",
                "required", true, "max_length", 3, "allowed_file_types", List.of("image"),
                "allowed_file_upload_methods", List.of("local_file"));

        InputField field = InputField.of(DataTree.of(data));

        assertThat(field.variable()).isEqualTo("pics");
        assertThat(field.kind()).isEqualTo(InputFieldKind.FILE_LIST);
        assertThat(field.required()).isTrue();
        assertThat(field.maxLength()).isEqualTo(3);
        assertThat(field.fileRules().types()).containsExactly("image");
        assertThat(field.fileRules().methods()).containsExactly("local_file");
        assertThat(field.data().asMap()).isEqualTo(data);
    }

    @Test
    void aFieldWithNoTypeIsATextInput() {
        InputField field = InputField.of(DataTree.of(Map.of("variable", "q", "default", "hi")));

        assertThat(field.kind()).isEqualTo(InputFieldKind.TEXT_INPUT);
        assertThat(field.defaultValue()).isEqualTo("hi");
        assertThat(field.required()).isFalse();
    }

    @Test
    void anUnknownKindOrABadLimitIsRefusedNamingTheFieldAndWhatWouldFit() {
        assertThatThrownBy(() -> InputField.of(DataTree.of(Map.of("variable", "q", "type", "text-inptu"))))
                .isInstanceOf(InvalidNodeDataException.class)
                .hasMessage("variables.q.type 'text-inptu' is not an input type (one of text-input, paragraph, "
                        + "select, number, checkbox, json_object, file, file-list, external_data_tool)");
        assertThatThrownBy(() -> InputField.of(DataTree.of(Map.of("variable", "q", "max_length", "long"))))
                .hasMessage("variables.q.max_length must be a number, was 'long'");
        assertThatThrownBy(() -> InputField.of(DataTree.of(Map.of("type", "number"))))
                .hasMessage("variable is missing");
    }

    @Test
    void aWorkflowAnswersItsStartFormAsTypedFields() {
        Node start = Node.of("start", NodeType.START, Map.of("variables", List.of(
                Map.of("variable", "n", "type", "number"), Map.of("variable", "c", "type", "checkbox"))));
        Workflow workflow = new Workflow(new AppInfo("t", "workflow", null, null, null, null, false), null,
                new Graph(List.of(start), List.of()), null, null);

        assertThat(workflow.inputFields()).extracting(InputField::kind)
                .containsExactly(InputFieldKind.NUMBER, InputFieldKind.CHECKBOX);
    }
}
