package dev.hexaflow.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.hexaflow.adapters.http.serviceapi.ServiceApiAuthentication;
import dev.hexaflow.adapters.http.support.ResponseBodies;
import dev.hexaflow.adapters.http.wire.CompletionJson;
import dev.hexaflow.adapters.http.wire.DifyWire;
import dev.hexaflow.domain.app.AppKey;
import dev.hexaflow.domain.id.TimeOrderedIds;
import dev.hexaflow.domain.secret.SecretHash;
import dev.hexaflow.domain.workflow.FileValue;
import dev.hexaflow.domain.workflow.RunStatus;
import dev.hexaflow.domain.workflow.WorkflowRun;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.function.Supplier;
import java.util.regex.Pattern;

/**
 * The small per-request costs of issue 40 (point 5), before and after, in single-thread CPU time
 * ({@code ThreadMXBean.getCurrentThreadCpuTime}), so that a machine shared with other work still gives
 * comparable figures: each pair is measured in the same process, in interleaved rounds, and reported as medians
 * and their ratio. "Before" is the code as it was (copied below, {@link Before}); "after" is the server's own.
 * <ol>
 * <li>an app key's check on {@code /v1}: the route's access, the Authorization header's split, the key's form
 * and its SHA-256;</li>
 * <li>the ids of one run (eight: end user, trace, run, task, four node executions), and one id on each of two
 * threads at once (the CPU both spend, per id);</li>
 * <li>a blocking run's answer: the four-node workflow's, and one with outputs of every kind;</li>
 * <li>an answer written on a new thread (a virtual thread per request has empty thread-locals), by a mapper
 * with Jackson's per-thread buffers (its default) and by one with its shared pool: CPU time and bytes
 * allocated.</li>
 * </ol>
 *
 * <p>Usage: {@code java -cp bench/target/benchmarks.jar dev.hexaflow.bench.SmallCostsBench [ROUNDS]} (default
 * 15), after {@code mvn -B -Pbench -DskipTests package}; prints a Markdown table. Benchmarks report; nothing
 * here fails a build.
 */
public final class SmallCostsBench {

    private static final ThreadMXBean CPU = ManagementFactory.getThreadMXBean();
    private static final com.sun.management.ThreadMXBean ALLOCATED = (com.sun.management.ThreadMXBean) CPU;
    private static final String KEY = "app-AbCdEfGhIjKlMnOpQrSt0129";
    private static final String HEADER = "Bearer " + KEY;
    private static volatile Object sink;

    private SmallCostsBench() {
    }

    public static void main(String[] args) throws Exception {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 15;
        WorkflowRun fourNodes = new WorkflowRun(new TimeOrderedIds().get(), "wf-four-nodes", RunStatus.SUCCEEDED,
                Map.of("name", "bench", "sys.user_id", "bench"), Map.of("greeting", "Hello, bench!"), null,
                0.004321, 0, 4, 0, 1_700_000_000L, 1_700_000_001L);
        WorkflowRun everyKind = new WorkflowRun(fourNodes.id(), "wf-every-kind", RunStatus.SUCCEEDED, Map.of(),
                everyKind(), null, 1.25, 1234, 9, 0, 1_700_000_000L, 1_700_000_003L);
        String task = new TimeOrderedIds().get();
        TimeOrderedIds ids = new TimeOrderedIds();
        ObjectMapper perThread = new ObjectMapper();
        ObjectMapper pooled = ResponseBodies.jsonMapper();
        Map<String, Object> answer = DifyWire.completion(fourNodes, task);
        List<Case> cases = List.of(
                Case.here("app key check (access, header, form, SHA-256)", 20_000,
                        () -> Before.keyCheck(HEADER), () -> After.keyCheck(HEADER)),
                Case.here("ids of one run (8)", 5_000, () -> Before.ids(8), () -> After.ids(ids, 8)),
                Case.elsewhere("one id, two threads making ids at once (CPU of both, per id)", 1, 2 * 20_000,
                        () -> twoThreads(20_000, Before::id), () -> twoThreads(20_000, ids::get)),
                Case.here("blocking answer, four-node run", 20_000,
                        () -> mapsThenMapper(fourNodes, task), () -> CompletionJson.of(fourNodes, task)),
                Case.here("the same, bytes allocated", 20_000,
                        () -> mapsThenMapper(fourNodes, task), () -> CompletionJson.of(fourNodes, task)).inBytes(),
                Case.here("blocking answer, outputs of every kind", 5_000,
                        () -> mapsThenMapper(everyKind, task), () -> CompletionJson.of(everyKind, task)),
                Case.here("the same, bytes allocated", 5_000,
                        () -> mapsThenMapper(everyKind, task), () -> CompletionJson.of(everyKind, task)).inBytes(),
                Case.elsewhere("answer written on a new thread (Jackson's per-thread buffers, its shared pool)", 300,
                        1, () -> writtenOnNewThread(perThread, answer, false),
                        () -> writtenOnNewThread(pooled, answer, false)),
                Case.elsewhere("the same, bytes allocated", 300, 1,
                        () -> writtenOnNewThread(perThread, answer, true),
                        () -> writtenOnNewThread(pooled, answer, true)));
        for (Case c : cases) {
            c.warmUp();
        }
        for (int round = 0; round < rounds; round++) {
            for (Case c : cases) {
                c.round();
            }
        }
        System.out.println("| Cost | Before | After | After / before |");
        System.out.println("|---|---:|---:|---:|");
        for (Case c : cases) {
            System.out.println(c.row());
        }
        System.out.println();
        System.out.println("JDK " + Runtime.version() + ", " + Runtime.getRuntime().availableProcessors()
                + " processors, " + rounds + " rounds; medians per operation, in ns of CPU time or bytes where said");
    }

    private static byte[] mapsThenMapper(WorkflowRun run, String task) {
        return DifyWire.json(DifyWire.completion(run, task)).getBytes(StandardCharsets.UTF_8);
    }

    /**
     * The CPU time (or the bytes allocated) of a blocking answer written by {@code mapper} on a thread that has
     * written nothing before, as a virtual thread (one per request) has not. ThreadMXBean tells nothing of a
     * virtual thread's CPU, so a new platform thread stands in: its thread-locals are as empty.
     */
    private static long writtenOnNewThread(ObjectMapper mapper, Map<String, Object> answer, boolean bytes) {
        long[] spent = new long[1];
        Thread thread = new Thread(() -> {
            long start = bytes ? ALLOCATED.getCurrentThreadAllocatedBytes() : CPU.getCurrentThreadCpuTime();
            try {
                sink = mapper.writeValueAsBytes(answer);
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
            spent[0] = (bytes ? ALLOCATED.getCurrentThreadAllocatedBytes() : CPU.getCurrentThreadCpuTime()) - start;
        });
        thread.start();
        join(thread);
        return spent[0];
    }

    /** The CPU time two threads spend making {@code each} ids at once, both counted. */
    private static long twoThreads(int each, Supplier<String> id) {
        long[] spent = new long[2];
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < 2; t++) {
            int slot = t;
            threads.add(new Thread(() -> {
                long start = CPU.getCurrentThreadCpuTime();
                for (int i = 0; i < each; i++) {
                    sink = id.get();
                }
                spent[slot] = CPU.getCurrentThreadCpuTime() - start;
            }));
        }
        threads.forEach(Thread::start);
        threads.forEach(SmallCostsBench::join);
        return spent[0] + spent[1];
    }

    private static void join(Thread thread) {
        try {
            thread.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static Map<String, Object> everyKind() {
        FileValue file = new FileValue("file-1", "image", "local_file", null, "upload-1", "cat.png", ".png",
                "image/png", 1234, "https://example.test/files/cat.png?sign=x");
        Map<String, Object> outputs = new LinkedHashMap<>();
        outputs.put("text", "Hello, Ada! Здравствуйте \ud83d\ude00 \"quoted\"\n");
        outputs.put("integer", 42);
        outputs.put("long", 9_007_199_254_740_993L);
        outputs.put("float", 3.14);
        outputs.put("boolean", true);
        outputs.put("none", null);
        outputs.put("object", Map.of("a", 1, "b", List.of("x", "y")));
        outputs.put("array_number", List.of(1, 2.5, -3L));
        outputs.put("array_object", List.of(Map.of("k", "v"), Map.of("k", "w")));
        outputs.put("file", file);
        outputs.put("array_file", List.of(file, file));
        return outputs;
    }

    /**
     * One figure, before and after, each side's CPU time per operation in each round. An operation runs on this
     * thread ({@code ops} times a round), or on threads of its own, reporting the CPU time they spent on
     * {@code perCall} operations ({@code ops} calls a round).
     */
    private static final class Case {

        private final String name;
        private final int ops;
        private final int perCall;
        private boolean bytes;
        private final Op before;
        private final Op after;
        private final List<Double> befores = new ArrayList<>();
        private final List<Double> afters = new ArrayList<>();

        private Case(String name, int ops, int perCall, Op before, Op after) {
            this.name = name;
            this.ops = ops;
            this.perCall = perCall;
            this.before = before;
            this.after = after;
        }

        static Case here(String name, int ops, Op before, Op after) {
            return new Case(name, ops, 0, before, after);
        }

        static Case elsewhere(String name, int calls, int perCall, Op before, Op after) {
            return new Case(name, calls, perCall, before, after);
        }

        /** The same, in bytes allocated rather than CPU time. */
        Case inBytes() {
            bytes = true;
            return this;
        }

        private long now() {
            return bytes ? ALLOCATED.getCurrentThreadAllocatedBytes() : CPU.getCurrentThreadCpuTime();
        }

        void warmUp() {
            for (int i = 0; i < 3; i++) {
                measure(before);
                measure(after);
            }
        }

        void round() {
            befores.add(measure(before));
            afters.add(measure(after));
        }

        private double measure(Op op) {
            if (perCall > 0) {
                long spent = 0;
                for (int i = 0; i < ops; i++) {
                    spent += (Long) op.run();
                }
                return (double) spent / ((long) ops * perCall);
            }
            long start = now();
            for (int i = 0; i < ops; i++) {
                sink = op.run();
            }
            return (double) (now() - start) / ops;
        }

        String row() {
            double b = median(befores);
            double a = median(afters);
            return String.format("| %s | %.0f | %.0f | %.2f |", name, b, a, a / b);
        }

        private static double median(List<Double> values) {
            double[] sorted = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
            return sorted[sorted.length / 2];
        }
    }

    @FunctionalInterface
    private interface Op {
        Object run();
    }

    /** The code as it was before issue 40's point 5, copied as it read. */
    static final class Before {

        private static final Pattern SHA256_HEX = Pattern.compile("[0-9a-f]{64}");
        private static final Pattern KEY_FORM = Pattern.compile("app-[A-Za-z0-9]{24}");
        private static final SecureRandom RANDOM = new SecureRandom();
        private static final Set<Object> ROLES = Set.of(ServiceApiAuthentication.Access.RUN);

        static Object keyCheck(String header) {
            Object access = ROLES.stream().filter(ServiceApiAuthentication.Access.class::isInstance)
                    .map(ServiceApiAuthentication.Access.class::cast).findFirst().orElse(null);
            if (header == null || header.isBlank() || !header.strip().contains(" ") || access == null) {
                return null;
            }
            String[] parts = header.strip().split("\\s+", 2);
            String token = parts[1].strip();
            if (!parts[0].equalsIgnoreCase("bearer") || !KEY_FORM.matcher(token).matches()) {
                return null;
            }
            try {
                String hex = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                        .digest(token.getBytes(StandardCharsets.UTF_8)));
                if (!SHA256_HEX.matcher(hex).matches()) {
                    throw new IllegalArgumentException("hex must be 64 lowercase hex digits");
                }
                return hex;
            } catch (java.security.NoSuchAlgorithmException e) {
                throw new IllegalStateException(e);
            }
        }

        static Object ids(int count) {
            String[] made = new String[count];
            for (int i = 0; i < count; i++) {
                made[i] = id();
            }
            return made;
        }

        static String id() {
            long millis = System.currentTimeMillis();
            byte[] random = new byte[10];
            RANDOM.nextBytes(random);
            long high = (millis & 0xFFFF_FFFF_FFFFL) << 16 | 0x7000L | (random[0] & 0x0FL) << 8 | (random[1] & 0xFFL);
            long low = 0x8000_0000_0000_0000L | (random[2] & 0x3FL) << 56;
            for (int i = 3; i < 10; i++) {
                low |= (random[i] & 0xFFL) << (8 * (9 - i));
            }
            return new UUID(high, low).toString();
        }
    }

    /** The server's code now, called as a request calls it. */
    static final class After {

        private static final Set<Object> ROLES = Set.of(ServiceApiAuthentication.Access.RUN);

        static Object keyCheck(String header) {
            Object access = null;
            for (Object role : ROLES) {
                if (role instanceof ServiceApiAuthentication.Access found) {
                    access = found;
                    break;
                }
            }
            if (header == null || header.isBlank() || !header.strip().contains(" ") || access == null) {
                return null;
            }
            String[] parts = ServiceApiAuthentication.schemeAndCredentials(header.strip());
            String token = parts[1].strip();
            if (!parts[0].equalsIgnoreCase("bearer") || !AppKey.looksLikeKey(token)) {
                return null;
            }
            return SecretHash.of(token);
        }

        static Object ids(TimeOrderedIds ids, int count) {
            String[] made = new String[count];
            for (int i = 0; i < count; i++) {
                made[i] = ids.get();
            }
            return Arrays.asList(made);
        }
    }
}
