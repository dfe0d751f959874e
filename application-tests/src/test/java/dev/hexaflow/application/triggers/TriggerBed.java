package dev.hexaflow.application.triggers;

import dev.hexaflow.adapters.clients.schedule.CronUtilsCalendar;
import dev.hexaflow.adapters.persistence.memory.InMemoryAppKeyRepository;
import dev.hexaflow.adapters.persistence.memory.InMemoryAppRepository;
import dev.hexaflow.adapters.persistence.memory.InMemoryTriggerRepository;
import dev.hexaflow.adapters.persistence.memory.InMemoryWorkflowVersionRepository;
import dev.hexaflow.application.EchoWorkflow;
import dev.hexaflow.application.MovableClock;
import dev.hexaflow.application.apps.service.ImportAppService;
import dev.hexaflow.application.apps.service.Publications;
import dev.hexaflow.application.apps.service.PublishWorkflowService;
import dev.hexaflow.application.common.ApiException;
import dev.hexaflow.application.common.port.out.SecretGenerator;
import dev.hexaflow.application.runs.port.in.RunWorkflowUseCase;
import dev.hexaflow.application.runs.port.in.RunWorkflowUseCase.RunUnderWay;
import dev.hexaflow.application.runs.port.in.RunWorkflowUseCase.RunWorkflowCommand;
import dev.hexaflow.application.triggers.service.CallWebhookService;
import dev.hexaflow.application.triggers.service.FireSchedulesService;
import dev.hexaflow.application.triggers.service.ManageTriggersService;
import dev.hexaflow.application.triggers.service.TriggerRuns;
import dev.hexaflow.application.triggers.service.TriggerSync;
import dev.hexaflow.domain.trigger.Trigger;
import dev.hexaflow.domain.trigger.WebhookCall;
import dev.hexaflow.domain.workflow.AppInfo;
import dev.hexaflow.domain.workflow.Edge;
import dev.hexaflow.domain.workflow.Graph;
import dev.hexaflow.domain.workflow.Node;
import dev.hexaflow.domain.workflow.NodeType;
import dev.hexaflow.domain.workflow.Workflow;
import dev.hexaflow.workflow.port.out.WorkflowDslReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The triggers context in memory, as the server wires it: apps imported and published through the apps context
 * (its publications tell {@link TriggerSync}), the in-memory trigger store, the real cron calendar and a clock that
 * stands still until moved. Runs start through {@link #runs}, a recording run use case: each command is kept in
 * {@link #started} and answered with run {@code run-N}, or refused with {@link #refusal} while it is set. Since
 * application-tests has no DSL reader, a DSL file's text names a workflow built here ({@link #file}).
 */
final class TriggerBed {

    /** A Monday, 08:00 UTC. */
    static final Instant START = Instant.parse("2026-03-02T08:00:00Z");
    /** How late a tick may be found and still be on time. */
    static final Duration LATE_AFTER = Duration.ofMinutes(2);

    final MovableClock clock = new MovableClock(START);
    final InMemoryTriggerRepository triggers = new InMemoryTriggerRepository();
    final InMemoryAppRepository apps = new InMemoryAppRepository();
    final InMemoryWorkflowVersionRepository versions = new InMemoryWorkflowVersionRepository();
    final CronUtilsCalendar calendar = new CronUtilsCalendar();
    /** The commands of the runs triggers started, in order. */
    final List<RunWorkflowCommand> started = Collections.synchronizedList(new ArrayList<>());
    /** Set, the run use case refuses every run with it. */
    volatile ApiException refusal;

    private final AtomicInteger drawn = new AtomicInteger();
    private final AtomicInteger runIds = new AtomicInteger();
    private final Map<String, Workflow> files = new ConcurrentHashMap<>();
    final WorkflowDslReader reader = dsl -> {
        Workflow workflow = files.get(new String(dsl, StandardCharsets.UTF_8));
        if (workflow == null) {
            throw new AssertionError("no workflow is filed as " + new String(dsl, StandardCharsets.UTF_8));
        }
        return workflow;
    };
    /** Secrets of the length asked, each another number: a code is 32 digits. */
    final SecretGenerator secrets = length -> String.format("%0" + length + "d", drawn.incrementAndGet());
    final RunWorkflowUseCase recording = (command, observer) -> {
        ApiException refused = refusal;
        if (refused != null) {
            throw refused;
        }
        String id = "run-" + runIds.incrementAndGet();
        started.add(command);
        return new RunUnderWay(id, "task-" + id, CompletableFuture.completedFuture(null));
    };
    final TriggerRuns runs = new TriggerRuns();
    final TriggerSync sync = new TriggerSync(triggers, calendar, secrets, clock, () -> "id-" + drawn.incrementAndGet());
    private final Publications publications = new Publications(reader, EchoWorkflow.engine(),
            new InMemoryAppKeyRepository(), secrets, clock, () -> "id-" + drawn.incrementAndGet(), sync);
    final ImportAppService importer = new ImportAppService(publications, apps, versions);
    final PublishWorkflowService publisher = new PublishWorkflowService(publications, apps, versions);

    TriggerBed() {
        runs.runWith(recording);
    }

    FireSchedulesService fireSchedules() {
        return new FireSchedulesService(triggers, calendar, runs, clock, LATE_AFTER);
    }

    ManageTriggersService manage() {
        return new ManageTriggersService(apps, triggers, calendar, secrets, clock);
    }

    CallWebhookService webhooks() {
        return new CallWebhookService(triggers, versions, reader, runs);
    }

    /** Files {@code workflow} under {@code text}, the DSL file's whole content. */
    byte[] file(String text, Workflow workflow) {
        files.put(text, workflow);
        return text.getBytes(StandardCharsets.UTF_8);
    }

    /** Imports a new app whose workflow is {@code workflow}; answers its id. */
    String importApp(String text, Workflow workflow) {
        return importer.importApp(file(text, workflow)).appId();
    }

    void publish(String appId, String text, Workflow workflow) {
        publisher.publish(appId, file(text, workflow));
    }

    Trigger trigger(String appId, String nodeId) {
        return triggers.find(appId, nodeId).orElseThrow(() -> new AssertionError("no trigger " + nodeId));
    }

    static long epoch(String instant) {
        return Instant.parse(instant).getEpochSecond();
    }

    /** A workflow of these triggers, each leading to an end of its own that answers its run's time. */
    static Workflow workflow(Node... triggerNodes) {
        List<Node> nodes = new ArrayList<>();
        List<Edge> edges = new ArrayList<>();
        for (Node trigger : triggerNodes) {
            String end = "end-" + trigger.id();
            nodes.add(trigger);
            nodes.add(Node.of(end, NodeType.END, Map.of("type", "end", "title", "End", "outputs",
                    List.of(Map.of("variable", "at", "value_selector", List.of(trigger.id(), "sys.timestamp"))))));
            edges.add(new Edge("e-" + trigger.id(), trigger.id(), end, Edge.DEFAULT_HANDLE));
        }
        return new Workflow(new AppInfo("Triggered", AppInfo.WORKFLOW_MODE, "⏰", "emoji", "#FFF", "", false),
                "0.5.0", new Graph(nodes, edges), null, List.of());
    }

    /** A schedule in cron mode. */
    static Node cron(String id, String expression, String zone) {
        return Node.of(id, NodeType.TRIGGER_SCHEDULE, Map.of("type", "trigger-schedule", "title", "Every " + id,
                "mode", "cron", "cron_expression", expression, "timezone", zone));
    }

    /** A schedule as the editor's visual mode writes it. */
    static Node visual(String id, String frequency, Map<String, Object> visualConfig) {
        return Node.of(id, NodeType.TRIGGER_SCHEDULE, Map.of("type", "trigger-schedule", "title", "Visual " + id,
                "mode", "visual", "frequency", frequency, "visual_config", visualConfig, "timezone", "UTC"));
    }

    /** A webhook taking an order: a required shop header, an optional numeric priority, an item and a count. */
    static Node orderHook(String id) {
        return webhook(id, Map.of());
    }

    /** The order webhook with some of its settings changed ({@code async_mode}, {@code response_body}, ...). */
    static Node webhook(String id, Map<String, Object> changes) {
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("type", "trigger-webhook");
        data.put("title", "Order webhook");
        data.put("method", "POST");
        data.put("content_type", "application/json");
        data.put("headers", List.of(Map.of("name", "X-Shop-Id", "type", "string", "required", true)));
        data.put("params", List.of(Map.of("name", "priority", "type", "number", "required", false)));
        data.put("body", List.of(Map.of("name", "item", "type", "string", "required", true),
                Map.of("name", "count", "type", "number", "required", true)));
        data.putAll(changes);
        return Node.of(id, NodeType.TRIGGER_WEBHOOK, data);
    }

    static Node plugin(String id) {
        return Node.of(id, NodeType.TRIGGER_PLUGIN, Map.of("type", "trigger-plugin", "title", "New issue",
                "plugin_id", "langgenius/github_trigger", "provider_id", "langgenius/github_trigger/github",
                "event_name", "issues_opened", "subscription_id", "", "plugin_unique_identifier",
                "langgenius/github_trigger:0.0.1", "event_parameters", Map.of()));
    }

    /** A JSON POST to a webhook, as the HTTP adapter reads it. */
    static WebhookCall post(Map<String, List<String>> headers, Map<String, List<String>> query, Object body) {
        Map<String, List<String>> all = new LinkedHashMap<>(headers);
        all.put("Content-Type", List.of("application/json"));
        return new WebhookCall("POST", null, all, query, body, Map.of(), String.valueOf(body).getBytes(
                StandardCharsets.UTF_8));
    }

    /** A good order: shop {@code s-1}, priority {@code 2}, two apples. */
    static WebhookCall order() {
        return post(Map.of("X-Shop-Id", List.of("s-1")), Map.of("priority", List.of("2")),
                Map.of("item", "apple", "count", 2));
    }
}
