package dev.hexaflow.bench;

import dev.hexaflow.adapters.persistence.H2Database;
import dev.hexaflow.adapters.persistence.jdbi.JdbiEndUserRepository;
import dev.hexaflow.adapters.persistence.jdbi.JdbiRunRepository;
import dev.hexaflow.application.runs.port.out.RunRepository.KeptEvent;
import dev.hexaflow.application.runs.port.out.RunRepository.KeptRun;
import dev.hexaflow.application.runs.port.out.RunRepository.StartedRun;
import dev.hexaflow.domain.app.EndUser;
import dev.hexaflow.domain.id.TimeOrderedIds;
import dev.hexaflow.domain.workflow.ExecutionMetadata;
import dev.hexaflow.domain.workflow.Node;
import dev.hexaflow.domain.workflow.NodeExecution;
import dev.hexaflow.domain.workflow.NodeStatus;
import dev.hexaflow.domain.workflow.NodeType;
import dev.hexaflow.domain.workflow.RunStatus;
import dev.hexaflow.domain.workflow.WorkflowRun;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;

/**
 * Fills a stopped server's data directory with finished runs of one app, for the logs benchmark: written through
 * the server's own run repository (its group-commit writer), as the runs of the four-node benchmark workflow
 * would be. Inputs are {@code {"name": NAME-N}} with NAME one of 100 first names (so each name is in about 1% of
 * the runs) and N the run's number; outputs {@code {"greeting": "Hello, NAME-N!"}}; 1 000 end users; 90%
 * succeeded, 8% failed, 2% stopped; created over the 30 days before now. Each run is kept as the server keeps a
 * blocking run of that workflow ({@code RunRepository.kept}): its four node executions, and its events as the
 * references to them and the one text_chunk frame, so that the data directory is what a million real runs leave.
 *
 * <p>Usage: {@code java -cp benchmarks.jar dev.hexaflow.bench.SeedRuns DATA_DIR APP_ID WORKFLOW_ID COUNT}
 */
public final class SeedRuns {

    static final List<String> NAMES = List.of("ada", "alan", "grace", "edsger", "barbara", "donald", "john",
            "margaret", "ken", "dennis", "bjarne", "guido", "james", "linus", "tim", "vint", "bob", "radia", "frances",
            "leslie", "niklaus", "tony", "robin", "dana", "shafi", "silvio", "whitfield", "martin", "ivan", "fran",
            "adele", "alonzo", "haskell", "kurt", "claude", "norbert", "herbert", "marvin", "seymour", "douglas",
            "butler", "chuck", "alan-kay", "adi", "ron", "len", "judea", "yann", "geoffrey", "yoshua", "jeff",
            "sanjay", "hal", "gerald", "guy", "richard", "larry", "sergey", "steve", "bill", "paul", "peter", "mary",
            "anita", "sophie", "karen", "hedy", "evelyn", "jean", "kathleen", "betty", "marlyn", "ruth", "joan",
            "lynn", "carol", "susan", "elaine", "cynthia", "jennifer", "lixia", "monica", "daphne", "fei-fei",
            "regina", "cynthia-d", "manuela", "shwetak", "eric", "david", "michael", "andrew", "christos",
            "umesh", "avi", "noam", "ronald", "adi-s", "oded", "moni");

    private SeedRuns() {
    }

    /** The four-node workflow's executions: start, greet (template-transform), check (if-else), end. */
    private static List<NodeExecution> nodes(TimeOrderedIds ids, Map<String, Object> inputs, String name,
            long at) {
        String greeting = "Hello, " + name + "!";
        List<NodeExecution> nodes = new ArrayList<>();
        nodes.add(node(ids, "start", NodeType.START, "Start", 1, null, inputs, inputs, at));
        nodes.add(node(ids, "greet", NodeType.TEMPLATE_TRANSFORM, "Greet", 2, "start", Map.of("name", name),
                Map.of("output", greeting), at));
        nodes.add(node(ids, "check", NodeType.IF_ELSE, "Check", 3, "greet", Map.of(), Map.of("result", true,
                "selected_case_id", "true"), at));
        nodes.add(node(ids, "end", NodeType.END, "End", 4, "check", Map.of("greeting", greeting),
                Map.of("greeting", greeting), at));
        return nodes;
    }

    private static NodeExecution node(TimeOrderedIds ids, String id, NodeType type, String title, int index,
            String predecessor, Map<String, Object> inputs, Map<String, Object> outputs, long at) {
        return NodeExecution.started(ids.get(), Node.of(id, type, Map.of("title", title)), index, predecessor,
                ExecutionMetadata.NONE, at).finish(NodeStatus.SUCCEEDED, inputs, null, outputs, null, 0.001,
                ExecutionMetadata.NONE, at);
    }

    /** The events the server keeps for such a run: references to its rows, and its text_chunk frame. */
    private static List<KeptEvent> events(TimeOrderedIds ids, String runId, String taskId, String name) {
        List<String> data = new ArrayList<>(List.of("@ws"));
        for (int i = 0; i < 4; i++) {
            String node = ids.get();
            data.add("@ns " + node);
            if (i == 3) {
                data.add("{\"event\":\"text_chunk\",\"workflow_run_id\":\"" + runId + "\",\"task_id\":\"" + taskId
                        + "\",\"data\":{\"text\":\"Hello, " + name + "!\",\"from_variable_selector\":[\"greet\","
                        + "\"output\"]}}");
            }
            data.add("@nf " + node);
        }
        data.add("@wf");
        List<KeptEvent> events = new ArrayList<>();
        for (int i = 0; i < data.size(); i++) {
            events.add(new KeptEvent(runId, i + 1, data.get(i)));
        }
        return events;
    }

    public static void main(String[] args) {
        if (args.length != 4) {
            System.err.println("usage: SeedRuns DATA_DIR APP_ID WORKFLOW_ID COUNT");
            System.exit(2);
        }
        Path dataDir = Path.of(args[0]);
        String appId = args[1];
        String workflowId = args[2];
        int count = Integer.parseInt(args[3]);
        long began = System.nanoTime();
        try (H2Database database = H2Database.openFile(dataDir);
                JdbiEndUserRepository users = new JdbiEndUserRepository(database.jdbi())) {
            TimeOrderedIds ids = new TimeOrderedIds();
            long now = System.currentTimeMillis() / 1000;
            List<EndUser> endUsers = new ArrayList<>();
            for (int i = 0; i < 1000; i++) {
                endUsers.add(users.findOrAdd(new EndUser(ids.get(), appId, "user-" + i, now - 31 * 86_400)));
            }
            SplittableRandom random = new SplittableRandom(20261121);
            try (JdbiRunRepository runs = new JdbiRunRepository(database.jdbi())) {
                List<CompletableFuture<Void>> pending = new ArrayList<>();
                for (int n = 0; n < count; n++) {
                    String name = NAMES.get(random.nextInt(NAMES.size())) + "-" + n;
                    long createdAt = now - 30L * 86_400 + (long) n * 30L * 86_400 / count;
                    int roll = random.nextInt(100);
                    RunStatus status = roll < 90 ? RunStatus.SUCCEEDED : roll < 98 ? RunStatus.FAILED
                            : RunStatus.STOPPED;
                    EndUser user = endUsers.get(random.nextInt(endUsers.size()));
                    Map<String, Object> inputs = new LinkedHashMap<>();
                    inputs.put("name", name);
                    inputs.put("sys.user_id", user.sessionId());
                    inputs.put("sys.app_id", appId);
                    inputs.put("sys.workflow_id", workflowId);
                    String runId = ids.get();
                    inputs.put("sys.workflow_run_id", runId);
                    WorkflowRun run = WorkflowRun.started(runId, workflowId, inputs, createdAt).finish(status,
                            status == RunStatus.SUCCEEDED ? Map.of("greeting", "Hello, " + name + "!") : Map.of(),
                            status == RunStatus.FAILED ? "Max execution time 1200s reached."
                                    : status == RunStatus.STOPPED ? "Stopped by the user." : null,
                            0.004, 0, 4, 0, createdAt);
                    String taskId = ids.get();
                    pending.add(runs.kept(new KeptRun(new StartedRun(run, appId, taskId, user, "bench", ids.get()),
                            nodes(ids, inputs, name, createdAt), events(ids, runId, taskId, name))));
                    if (pending.size() == 20_000) {
                        pending.forEach(CompletableFuture::join);
                        pending.clear();
                    }
                }
                pending.forEach(CompletableFuture::join);
            }
        }
        System.out.printf("%d runs written in %.1f s%n", count, (System.nanoTime() - began) / 1e9);
    }
}
