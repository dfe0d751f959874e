package dev.hexaflow.application.runs.service;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class JsonStringsTest {

    private static final List<String> ODD = List.of("", "plain", "a \"quote\" and a \\ backslash",
            "lines\nand\r\nbreaks\tand tabs", "\u0000\u0001\u001f controls", "\u2028\u2029 separators",
            "é 😀 中文", "[\"looks\",\"like\",\"json\"]");

    @Test
    void whatIsWrittenReadsBackTheSameAndIsOneLine() {
        String json = JsonStrings.array(ODD);

        assertThat(json).doesNotContain("\n", "\r", "\u2028", "\u2029");
        assertThat(JsonStrings.parseArray(json)).containsExactlyElementsOf(ODD);
        assertThat(JsonStrings.parseArray(JsonStrings.array(List.of()))).isEmpty();
    }

    @Test
    void quotesBackslashesAndControlsAreEscapedAsJsonEscapesThem() {
        assertThat(JsonStrings.array(List.of("llm", "say \"hi\"\\\n\u0001\u2028é")))
                .isEqualTo("[\"llm\",\"say \\\"hi\\\"\\\\\\n\\u0001\\u2028é\"]");
    }

    @Test
    void anythingElseIsRefused() {
        assertThatThrownBy(() -> JsonStrings.parseArray("{\"a\":1}")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> JsonStrings.parseArray("[1]")).isInstanceOf(IllegalArgumentException.class);
    }
}
