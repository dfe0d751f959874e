package dev.hexaflow.adapters.http.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hexaflow.domain.workflow.FileValue;
import dev.hexaflow.domain.workflow.RunStatus;
import dev.hexaflow.domain.workflow.WorkflowRun;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The blocking answer written by a generator is, byte for byte, the answer the mapper wrote from maps. */
class CompletionJsonTest {

    private static final FileValue FILE = new FileValue("file-1", "image", "local_file", null, "upload-1",
            "cat.png", ".png", "image/png", 1234, "https://example.test/files/cat.png?sign=x");
    private static final FileValue REMOTE = new FileValue("file-2", "document", "remote_url",
            "https://example.test/a.pdf", null, "a.pdf", ".pdf", "application/pdf", 0, null);

    @Test
    void everyKindOfOutputIsWrittenAsTheMapperWroteIt() {
        for (RunStatus status : List.of(RunStatus.SUCCEEDED, RunStatus.PARTIAL_SUCCEEDED, RunStatus.FAILED,
                RunStatus.STOPPED)) {
            assertSame(run(status, everyKind(), status == RunStatus.FAILED ? "Node greet failed: \"x\"\n" : null));
        }
    }

    @Test
    void noOutputsEmptyOutputsAndARunWithoutAnEndAreWrittenAsBefore() {
        assertSame(run(RunStatus.SUCCEEDED, null, null));
        assertSame(run(RunStatus.SUCCEEDED, Map.of(), null));
        assertSame(new WorkflowRun("run-1", "wf-1", RunStatus.RUNNING, Map.of("name", "Ada"), Map.of("a", 1), null,
                0, 0, 0, 0, 1_700_000_000L, null));
    }

    @Test
    void textWithEscapesNonAsciiEmojiAndBrokenSurrogatesIsEncodedAsBefore() {
        Map<String, Object> outputs = new LinkedHashMap<>();
        outputs.put("quotes", "say \"hi\" \\ back/slash");
        outputs.put("controls", "tab\there\nnew\rline\b\f\u0000\u0001\u001f\u007f");
        outputs.put("non_ascii", "é 中文 \u2028 \u00a0 Здравствуйте");
        outputs.put("emoji", "smile \ud83d\ude00 and family \ud83d\udc68\u200d\ud83d\udc69\u200d\ud83d\udc67");
        outputs.put("lone_high", "broken \ud83d end");
        outputs.put("lone_low", "\ude00 start");
        outputs.put("html", "</script><b>&amp;</b>");
        outputs.put("key with \"quotes\" and é", "v");
        outputs.put("", "empty key");
        assertSame(run(RunStatus.SUCCEEDED, outputs, null));
    }

    @Test
    void numbersOfEveryWidthAndOddDoublesAreWrittenAsBefore() {
        Map<String, Object> outputs = new LinkedHashMap<>();
        List<Object> numbers = new ArrayList<>(List.of(0, -1, Integer.MAX_VALUE, Integer.MIN_VALUE, 0L,
                (1L << 53) + 1, Long.MIN_VALUE, Long.MAX_VALUE, 0.1, 1e20, 1e21, 1.0E-7, 123456.789, -0.0, 100.0,
                Double.MAX_VALUE, Double.MIN_VALUE, 2.0E-3, Double.NaN, Double.POSITIVE_INFINITY,
                Double.NEGATIVE_INFINITY, 1.5f, Float.NaN, (short) 7, (byte) 8, new BigDecimal("1.10"),
                new BigDecimal("1E+3"), new BigInteger("123456789012345678901234567890")));
        outputs.put("numbers", numbers);
        outputs.put("elapsed", 0.012345678901234567);
        assertSame(new WorkflowRun("run-2", "wf-2", RunStatus.SUCCEEDED, Map.of(), outputs, null,
                0.012345678901234567, Long.MAX_VALUE, Integer.MAX_VALUE, 3, 1_700_000_000L, 1_700_000_001L));
        assertSame(new WorkflowRun("run-3", "wf-3", RunStatus.SUCCEEDED, Map.of(), outputs, null,
                Double.NaN, 0, 0, 0, 0, 0L));
    }

    @Test
    void filesAndContainersTheGeneratorDoesNotWriteItselfAreHandedToTheMapperAsBefore() {
        Map<Object, Object> numberKeys = new LinkedHashMap<>();
        numberKeys.put(1, FILE);
        numberKeys.put(2L, List.of(REMOTE));
        Map<String, Object> outputs = new LinkedHashMap<>();
        outputs.put("file", FILE);
        outputs.put("files", List.of(FILE, REMOTE));
        outputs.put("nested", Map.of("deeper", List.of(Map.of("file", REMOTE))));
        outputs.put("number_keys", numberKeys);
        outputs.put("set", new LinkedHashSet<>(List.of("b", "a")));
        outputs.put("array", new String[] {"x", null});
        outputs.put("objects", new Object[] {1, "two", FILE});
        outputs.put("char", 'c');
        outputs.put("unmodifiable", Collections.unmodifiableList(Arrays.asList(1, null, "x")));
        assertSame(run(RunStatus.SUCCEEDED, outputs, null));
    }

    @Test
    void aMapWithANullKeyIsRefusedAsTheMapperRefusedIt() {
        Map<String, Object> outputs = new HashMap<>();
        outputs.put(null, "v");
        WorkflowRun run = run(RunStatus.SUCCEEDED, Map.of("bad", outputs), null);
        assertThatThrownBy(() -> DifyWire.json(DifyWire.completion(run, "task-1")))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> CompletionJson.of(run, "task-1")).isInstanceOf(IllegalArgumentException.class);
    }

    private static Map<String, Object> everyKind() {
        Map<String, Object> outputs = new LinkedHashMap<>();
        outputs.put("text", "Hello, Ada!");
        outputs.put("integer", 42);
        outputs.put("long", 9_007_199_254_740_993L);
        outputs.put("float", 3.14);
        outputs.put("true", true);
        outputs.put("false", false);
        outputs.put("none", null);
        outputs.put("object", new LinkedHashMap<>(Map.of("a", 1)));
        outputs.put("array_string", List.of("x", "y"));
        outputs.put("array_number", List.of(1, 2.5, -3L));
        outputs.put("array_object", List.of(Map.of("k", "v"), Map.of()));
        outputs.put("array_boolean", List.of(true, false));
        outputs.put("empty_list", List.of());
        outputs.put("empty_object", Map.of());
        outputs.put("file", FILE);
        outputs.put("array_file", List.of(FILE, REMOTE));
        outputs.put("nested", List.of(List.of(List.of()), Map.of("inner", Arrays.asList(null, "z"))));
        return outputs;
    }

    private static WorkflowRun run(RunStatus status, Map<String, Object> outputs, String error) {
        return new WorkflowRun("0190b3c2-5f7e-7a1b-8c3d-4e5f60718293", "wf-1", status, Map.of("name", "Ada"),
                outputs, error, 0.004321, 17, 4, status == RunStatus.PARTIAL_SUCCEEDED ? 1 : 0, 1_700_000_000L,
                1_700_000_001L);
    }

    private static void assertSame(WorkflowRun run) {
        byte[] before = DifyWire.json(DifyWire.completion(run, "task-1")).getBytes(StandardCharsets.UTF_8);
        byte[] written = CompletionJson.of(run, "task-1");
        assertThat(new String(written, StandardCharsets.UTF_8)).isEqualTo(new String(before, StandardCharsets.UTF_8));
        assertThat(written).isEqualTo(before);
    }
}
