package dev.hexaflow.application.tools;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hexaflow.adapters.persistence.memory.InMemoryBlobStore;
import dev.hexaflow.adapters.persistence.memory.InMemoryCampusDataRepository;
import dev.hexaflow.adapters.persistence.memory.InMemoryCampusKeyRepository;
import dev.hexaflow.adapters.persistence.memory.InMemoryToolFileRepository;
import dev.hexaflow.application.MovableClock;
import dev.hexaflow.application.campus.port.in.CampusFeedAnswer;
import dev.hexaflow.application.campus.port.in.CampusFeedQuery;
import dev.hexaflow.application.campus.port.in.ServeCampusFeedUseCase;
import dev.hexaflow.application.campus.port.out.FeedRenderer;
import dev.hexaflow.application.campus.service.CampusFeedService;
import dev.hexaflow.application.common.FileSignatures;
import dev.hexaflow.application.tools.port.in.ServeToolFileQuery;
import dev.hexaflow.application.tools.service.BoundToolRunners;
import dev.hexaflow.application.tools.service.CampusFeedToolRunner;
import dev.hexaflow.application.tools.service.ToolFileService;
import dev.hexaflow.application.tools.service.ToolFilesKept;
import dev.hexaflow.domain.campus.FeedMethod;
import dev.hexaflow.domain.campus.Holiday;
import dev.hexaflow.domain.tool.ToolDescription;
import dev.hexaflow.domain.tool.ToolMessage;
import dev.hexaflow.domain.tool.ToolProviderType;
import dev.hexaflow.domain.tool.ToolRef;
import dev.hexaflow.workflow.engine.StopSignal;
import dev.hexaflow.workflow.nodes.StandardNodes;
import dev.hexaflow.workflow.port.out.ToolRunner;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The tool runners the composition root wraps around the engine's: bindings put first, blobs kept as tool files
 * on the in-memory blob store, and the campus holidays tool reading the real feed service on in-memory data.
 */
class ToolRunnersTest {

    private static final ToolRef TIME = new ToolRef(ToolProviderType.BUILTIN, "time", "current_time");
    private static final ToolRef HOLIDAYS = new ToolRef(ToolProviderType.BUILTIN, "hexaflow", "campus_holidays");

    private final MovableClock clock = new MovableClock(Instant.parse("2026-03-01T10:00:00Z"));
    private final AtomicInteger ids = new AtomicInteger();
    private final InMemoryBlobStore blobs = new InMemoryBlobStore();
    private final FileSignatures signatures = new FileSignatures(message -> ("sig" + Arrays.hashCode(message))
            .getBytes(StandardCharsets.US_ASCII), length -> "n".repeat(length), clock);
    private final ToolFileService files = new ToolFileService(blobs, new InMemoryToolFileRepository(), signatures,
            clock, () -> "file-" + ids.incrementAndGet());
    private final InMemoryCampusDataRepository campusData = new InMemoryCampusDataRepository();
    /** Renders the holidays' names, so that the tool's text shows what the feed answered. */
    private final FeedRenderer renderer = (envelope, format, callback) -> new FeedRenderer.RenderedFeed(
            format.name(), (envelope.meta().status().code() + ":" + envelope.data().stream()
                    .map(record -> ((Holiday) record).name()).toList()).getBytes(StandardCharsets.UTF_8));
    private final CampusFeedService feed = new CampusFeedService(new InMemoryCampusKeyRepository(), campusData,
            renderer, clock);

    /** A runner that runs one tool and answers the given messages, and says who it is. */
    private static ToolRunner runner(String name, ToolRef runs, ToolMessage... answers) {
        return new ToolRunner() {
            @Override
            public Optional<ToolDescription> describe(ToolRef tool) {
                return tool.equals(runs) ? Optional.of(new ToolDescription(tool, name, Map.of())) : Optional.empty();
            }

            @Override
            public List<ToolMessage> run(ToolRef tool, Map<String, Object> arguments, StopSignal stop) {
                return List.of(answers);
            }

            @Override
            public String toString() {
                return name;
            }
        };
    }

    /** The first runner the services hold for the tool, as the tool node picks it. */
    private static ToolRunner picked(StandardNodes.Services services, ToolRef tool) {
        return services.tools().stream().filter(r -> r.runs(tool)).findFirst().orElseThrow();
    }

    @Test
    void boundRunnersComeBeforeTheEnginesOwnSoABindingWinsOverABuiltInOfTheSameName() {
        StandardNodes.Services engines = StandardNodes.Services.none()
                .withTools(List.of(runner("builtin", TIME), runner("other", HOLIDAYS)));

        StandardNodes.Services services = BoundToolRunners.first(engines, runner("bound-a", TIME),
                runner("bound-b", TIME));

        assertThat(services.tools()).extracting(Object::toString)
                .containsExactly("bound-a", "bound-b", "builtin", "other");
        assertThat(picked(services, TIME)).hasToString("bound-a");
        assertThat(picked(services, HOLIDAYS)).hasToString("other");
    }

    @Test
    void withNoBindingsTheEnginesRunnersStayAsTheyWere() {
        StandardNodes.Services engines = StandardNodes.Services.none().withTools(List.of(runner("builtin", TIME)));

        assertThat(BoundToolRunners.first(engines).tools()).extracting(Object::toString).containsExactly("builtin");
    }

    @Test
    void aBlobIsKeptAsAToolFileThatServesItsBytesWhileOtherMessagesPassUnchanged() {
        ToolMessage.Text text = new ToolMessage.Text("spoken");
        StandardNodes.Services services = ToolFilesKept.around(StandardNodes.Services.none().withTools(List.of(
                runner("speech", TIME, text, new ToolMessage.Blob("RIFF".getBytes(StandardCharsets.UTF_8),
                        "audio/wav", "speech.wav")))), files);

        List<ToolMessage> messages = picked(services, TIME).run(TIME, Map.of(), StopSignal.NEVER);

        assertThat(messages).hasSize(2);
        assertThat(messages.get(0)).isEqualTo(text);
        ToolMessage.File file = (ToolMessage.File) messages.get(1);
        assertThat(file.file().extension()).isEqualTo(".wav");
        assertThat(file.file().mimeType()).isEqualTo("audio/wav");
        assertThat(file.file().url()).contains("/files/tools/" + file.file().id() + ".wav?");
        String query = file.file().url().substring(file.file().url().indexOf('?') + 1);
        String[] parts = query.split("&");
        byte[] served = files.serve(new ServeToolFileQuery(file.file().id(), ".wav", after(parts[0]),
                after(parts[1]), after(parts[2]))).bytes();
        assertThat(new String(served, StandardCharsets.UTF_8)).isEqualTo("RIFF");
    }

    private static String after(String pair) {
        return pair.substring(pair.indexOf('=') + 1);
    }

    @Test
    void eachRunnerIsWrappedAndStillDescribesAndRunsOnlyItsOwnTools() {
        StandardNodes.Services services = ToolFilesKept.around(StandardNodes.Services.none().withTools(List.of(
                runner("a", TIME), runner("b", HOLIDAYS))), files);

        assertThat(services.tools()).hasSize(2).allSatisfy(r -> assertThat(r).isInstanceOf(ToolFilesKept.class));
        assertThat(services.tools().get(0).runs(TIME)).isTrue();
        assertThat(services.tools().get(0).runs(HOLIDAYS)).isFalse();
        assertThat(services.tools().get(1).describe(HOLIDAYS).orElseThrow().description()).isEqualTo("b");
    }

    @Test
    void aBlobOverTheToolFileLimitFailsTheToolCallWithTheRefusal() {
        byte[] huge = new byte[(int) ToolFileService.MAX_BYTES + 1];
        ToolRunner kept = ToolFilesKept.around(StandardNodes.Services.none().withTools(List.of(
                runner("big", TIME, new ToolMessage.Blob(huge, "image/png", "big.png")))), files).tools().get(0);

        assertThatThrownBy(() -> kept.run(TIME, Map.of(), StopSignal.NEVER))
                .isInstanceOf(ToolRunner.ToolException.class).hasMessageContaining("more than a tool file may hold");
    }

    @Test
    void theHolidaysToolAnswersTheFeedsJsonAsAnAnonymousCallerGetsIt() {
        campusData.replaceAll(FeedMethod.HOLIDAYS, List.of(new Holiday("New Year", LocalDate.of(2026, 1, 1)),
                new Holiday("Easter", LocalDate.of(2026, 4, 5))));
        CampusFeedToolRunner tool = new CampusFeedToolRunner(() -> feed);

        List<ToolMessage> messages = tool.run(HOLIDAYS, Map.of(), StopSignal.NEVER);

        assertThat(messages).containsExactly(new ToolMessage.Text("200:[New Year, Easter]"));
    }

    @Test
    void theHolidaysToolIsDescribedForItsBuiltInAndPluginNamesOnly() {
        CampusFeedToolRunner tool = new CampusFeedToolRunner(() -> feed);

        assertThat(tool.describe(HOLIDAYS)).isPresent();
        assertThat(tool.runs(new ToolRef(ToolProviderType.PLUGIN, "hexaflow", "campus_holidays"))).isTrue();
        assertThat(tool.runs(new ToolRef(ToolProviderType.MCP, "hexaflow", "campus_holidays"))).isFalse();
        assertThat(tool.runs(new ToolRef(ToolProviderType.BUILTIN, "hexaflow", "campus_tutors"))).isFalse();
        assertThat(CampusFeedToolRunner.labels()).containsExactly(HOLIDAYS.label());
    }

    @Test
    void anEmptyHolidaySetIsStillAnAnswerNotAFailure() {
        CampusFeedToolRunner tool = new CampusFeedToolRunner(() -> feed);

        assertThat(tool.run(HOLIDAYS, Map.of(), StopSignal.NEVER)).containsExactly(new ToolMessage.Text("204:[]"));
    }

    @Test
    void aProcessWithoutAFeedOrAFeedThatIsDownFailsTheToolSayingWhy() {
        CampusFeedToolRunner none = new CampusFeedToolRunner(() -> null);
        // A feed whose every answer is the shutdown answer, as while the server stops.
        CampusFeedToolRunner down = new CampusFeedToolRunner(() -> new ServeCampusFeedUseCase() {
            @Override
            public CampusFeedAnswer serve(CampusFeedQuery query) {
                return feed.unavailable();
            }

            @Override
            public CampusFeedAnswer unavailable() {
                return feed.unavailable();
            }
        });

        assertThatThrownBy(() -> none.run(HOLIDAYS, Map.of(), StopSignal.NEVER))
                .isInstanceOf(ToolRunner.ToolException.class).hasMessageContaining("serves no campus feed");
        assertThatThrownBy(() -> down.run(HOLIDAYS, Map.of(), StopSignal.NEVER))
                .isInstanceOf(ToolRunner.ToolException.class).hasMessageStartingWith("The campus feed answered 503");
    }
}
