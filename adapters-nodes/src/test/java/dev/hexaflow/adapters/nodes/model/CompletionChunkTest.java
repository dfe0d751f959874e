package dev.hexaflow.adapters.nodes.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.hexaflow.adapters.nodes.model.CompletionChunk.ToolCallPiece;
import dev.hexaflow.workflow.port.out.ModelProvider.Usage;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A streamed chunk read without a tree says what its tree says, for the shapes OpenAI-compatible servers send and
 * for odd ones (which the streaming reading hands to the tree).
 */
class CompletionChunkTest {

    static final ObjectMapper JSON = new ObjectMapper();

    /** The shapes servers send: each is read by the streaming parser, with no tree. */
    static final List<String> USUAL = List.of(
            "{\"id\":\"c1\",\"object\":\"chat.completion.chunk\",\"choices\":[{\"index\":0,\"delta\":{\"role\":"
                    + "\"assistant\",\"content\":\"Hel\\u006co \\\"x\\\"\"},\"logprobs\":null,\"finish_reason\":null}]}",
            "{\"choices\":[{\"index\":0,\"delta\":{\"content\":null,\"reasoning_content\":\"think\"},"
                    + "\"finish_reason\":null}]}",
            "{\"choices\":[{\"index\":0,\"delta\":{\"reasoning\":\"vllm\"}}]}",
            "{\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}],\"usage\":null}",
            "{\"choices\":[],\"usage\":{\"prompt_tokens\":5,\"completion_tokens\":100,\"total_tokens\":105,"
                    + "\"prompt_tokens_details\":{\"cached_tokens\":0}}}",
            "{\"choices\":[],\"usage\":{\"prompt_tokens\":5,\"completion_tokens\":7}}",
            "{\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"id\":\"call_1\",\"type\":"
                    + "\"function\",\"function\":{\"name\":\"weekday\",\"arguments\":\"\"}}]},\"finish_reason\":null}]}",
            "{\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"function\":{\"arguments\":"
                    + "\"{\\\"month\\\"\"}}]}}]}",
            "{\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"id\":null,\"function\":{\"name\":null,"
                    + "\"arguments\":\": 2}\"}}]}}]}",
            "{\"choices\":[{\"delta\":{\"content\":\"a\"}},{\"delta\":{\"content\":\"second choice\"}}]}",
            "{\"choices\":null}",
            "{\"object\":\"ping\"}",
            "{\"choices\":[{\"delta\":{\"content\":\"first\"}}],\"choices\":[{\"delta\":{\"content\":\"last\"}}]}",
            "{\"choices\":[{\"delta\":{\"content\":5,\"tool_calls\":null},\"finish_reason\":null}]}");

    /** Odd shapes: the tree reads them, as it always did. */
    static final List<String> ODD = List.of(
            "{\"error\":{\"message\":\"overloaded\",\"type\":\"server_error\"}}",
            "{\"error\":\"plain\"}",
            "{\"choices\":{\"0\":{\"delta\":{\"content\":\"x\"}}}}",
            "{\"choices\":[{\"delta\":{\"tool_calls\":[{\"index\":\"1\",\"function\":{\"name\":7}}]}}]}",
            "{\"choices\":[{\"delta\":{\"tool_calls\":{\"a\":{\"index\":0}}}}]}",
            "{\"choices\":[{\"delta\":\"text\",\"finish_reason\":1}]}",
            "{\"choices\":[{\"finish_reason\":true}]}",
            "{\"choices\":[],\"usage\":{\"prompt_tokens\":\"5\",\"completion_tokens\":2.5,\"total_tokens\":null}}",
            "[1, 2]",
            "7",
            "");

    @Test
    void theUsualShapesAreReadWithoutATreeAndAsTheTreeReadsThem() throws Exception {
        for (String data : USUAL) {
            assertThat(CompletionChunk.streamed(data)).as(data).isNotNull()
                    .isEqualTo(CompletionChunk.of(JSON.readTree(data)));
        }
    }

    @Test
    void oddShapesAreLeftToTheTree() throws Exception {
        for (String data : ODD) {
            assertThat(CompletionChunk.streamed(data)).as(data).isNull();
            assertThat(CompletionChunk.of(data)).as(data).isEqualTo(CompletionChunk.of(JSON.readTree(data)));
        }
    }

    @Test
    void aStreamedChunkSaysWhatItCarries() throws Exception {
        CompletionChunk text = CompletionChunk.of(USUAL.get(0));
        CompletionChunk call = CompletionChunk.of(USUAL.get(6));
        CompletionChunk usage = CompletionChunk.of(USUAL.get(4));
        CompletionChunk error = CompletionChunk.of(ODD.get(0));

        assertThat(text.content()).isEqualTo("Hello \"x\"");
        assertThat(text.finishReason()).isNull();
        assertThat(call.toolCalls()).containsExactly(new ToolCallPiece(0, "call_1", "weekday", ""));
        assertThat(usage.usage()).isEqualTo(new Usage(5, 100, 105));
        assertThat(usage.choices()).isTrue();
        assertThat(CompletionChunk.of(USUAL.get(5)).usage()).isEqualTo(new Usage(5, 7, 12));
        assertThat(CompletionChunk.of(USUAL.get(8)).toolCalls()).containsExactly(new ToolCallPiece(null, "", "",
                ": 2}"));
        assertThat(error.error()).isEqualTo("overloaded");
    }

    @Test
    void invalidJsonFailsAsTheTreeFails() {
        assertThatThrownBy(() -> CompletionChunk.of("{\"choices\":[{\"delta\":")).isInstanceOf(
                JsonProcessingException.class);
    }
}
