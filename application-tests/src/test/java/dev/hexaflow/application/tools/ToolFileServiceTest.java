package dev.hexaflow.application.tools;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hexaflow.adapters.persistence.memory.InMemoryBlobStore;
import dev.hexaflow.adapters.persistence.memory.InMemoryToolFileRepository;
import dev.hexaflow.adapters.persistence.memory.InMemoryToolRegistryRepository;
import dev.hexaflow.application.MovableClock;
import dev.hexaflow.application.common.FileSignatures;
import dev.hexaflow.application.tools.port.in.KeepToolFileCommand;
import dev.hexaflow.application.tools.port.in.ListToolsUseCase.ToolCatalogue;
import dev.hexaflow.application.tools.port.in.RegisterMcpServerCommand;
import dev.hexaflow.application.tools.port.in.ServeToolFileQuery;
import dev.hexaflow.application.tools.port.in.ServeToolFileUseCase.ToolFileContent;
import dev.hexaflow.application.tools.port.in.ToolFileException;
import dev.hexaflow.application.tools.port.in.ToolFileException.Reason;
import dev.hexaflow.application.tools.service.ListToolsService;
import dev.hexaflow.application.tools.service.ManageMcpServersService;
import dev.hexaflow.application.tools.service.ToolFileService;
import dev.hexaflow.domain.tool.McpServer;
import dev.hexaflow.domain.tool.ToolMessage;
import dev.hexaflow.domain.workflow.FileValue;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;

/**
 * Keeping a tool's files and serving them by signed URL, on the in-memory blob store and tool file records; and
 * the tool catalogue, on the in-memory registry.
 */
class ToolFileServiceTest {

    private final InMemoryBlobStore blobs = new InMemoryBlobStore();
    private final MovableClock clock = new MovableClock(Instant.parse("2026-03-01T10:00:00Z"));
    private final AtomicInteger ids = new AtomicInteger();
    private final FileSignatures signatures = new FileSignatures(message -> ("sig" + Arrays.hashCode(message))
            .getBytes(StandardCharsets.US_ASCII), length -> "n".repeat(length), clock);
    private final ToolFileService files = new ToolFileService(blobs, new InMemoryToolFileRepository(), signatures,
            clock, () -> "file-" + ids.incrementAndGet());

    private FileValue keep(String text, String mimeType, String filename) {
        return files.keep(new KeepToolFileCommand(new ToolMessage.Blob(text.getBytes(StandardCharsets.UTF_8),
                mimeType, filename)));
    }

    /** The query of a file's signed URL: {@code /files/tools/{id}{extension}?timestamp=&nonce=&sign=}. */
    private static ServeToolFileQuery queryOf(FileValue file) {
        String url = file.url();
        String[] parts = url.substring(url.indexOf('?') + 1).split("&");
        return new ServeToolFileQuery(file.id(), file.extension(), value(parts[0]), value(parts[1]),
                value(parts[2]));
    }

    private static String value(String pair) {
        return pair.substring(pair.indexOf('=') + 1);
    }

    @Test
    void whereNoServerServesToolFilesAKeptFilesUrlIsWhereItIsAndNoSignedUrlServesIt() {
        ToolFileService local = new ToolFileService(blobs, new InMemoryToolFileRepository(),
                kept -> "/tmp/tool-files/" + kept.blobKey(), clock, () -> "local-1");

        FileValue file = local.keep(new KeepToolFileCommand(new ToolMessage.Blob(new byte[] {1, 2}, "image/png",
                null)));

        assertThat(file.url()).startsWith("/tmp/tool-files/").doesNotContain("file://", "?");
        assertThat(blobs.read(file.url().substring("/tmp/tool-files/".length()))).containsExactly(1, 2);
        assertThat(file.transferMethod()).isEqualTo("tool_file");
        assertThat(file.extension()).isEqualTo(".png");
        assertThatThrownBy(() -> local.serve(new ServeToolFileQuery("local-1", ".png", "1", "n", "s")))
                .isInstanceOfSatisfying(ToolFileException.class, e -> assertThat(e.reason())
                        .isEqualTo(Reason.FORBIDDEN));
    }

    @Test
    void aKeptFileIsAToolFileMappingWithASignedUrlThatServesIt() {
        FileValue file = keep("hello", "text/plain; charset=utf-8", "greeting.TXT");

        ToolFileContent content = files.serve(queryOf(file));

        assertThat(file.transferMethod()).isEqualTo("tool_file");
        assertThat(file.type()).isEqualTo("document");
        assertThat(file.extension()).isEqualTo(".txt");
        assertThat(file.mimeType()).isEqualTo("text/plain");
        assertThat(file.size()).isEqualTo(5);
        assertThat(file.url()).startsWith("/files/tools/" + file.id() + ".txt?timestamp=");
        assertThat(new String(content.bytes(), StandardCharsets.UTF_8)).isEqualTo("hello");
        assertThat(content.name()).isEqualTo("greeting.TXT");
    }

    @Test
    void aFileWithoutAUsableExtensionTakesItsMimeTypesOrBin() {
        assertThat(keep("x", "audio/mpeg", null).extension()).isEqualTo(".mp3");
        assertThat(keep("x", "image/png", "picture").extension()).isEqualTo(".png");
        assertThat(keep("x", "application/x-unknown", "data.not-an-extension!").extension()).isEqualTo(".bin");
        assertThat(keep("x", "image/png", "p").type()).isEqualTo("image");
        assertThat(keep("x", "audio/wav", "a").type()).isEqualTo("audio");
    }

    @Test
    void aFileOverTheLimitIsRefusedAsTooLargeAndLeavesNoBlob() {
        byte[] tooMuch = new byte[(int) ToolFileService.MAX_BYTES + 1];

        assertRefused(() -> files.keep(new KeepToolFileCommand(new ToolMessage.Blob(tooMuch, "image/png",
                "big.png"))), Reason.TOO_LARGE, "The tool made a file of more than 52428800 bytes, more than a tool "
                + "file may hold");
        assertThat(blobs.keys()).isEmpty();
    }

    @Test
    void aSignedUrlLastsFiveMinutes() {
        FileValue file = keep("hello", "text/plain", "a.txt");
        ServeToolFileQuery query = queryOf(file);

        clock.advance(FileSignatures.ACCESS_TIMEOUT);
        assertThat(files.serve(query).bytes()).hasSize(5);
        clock.advance(Duration.ofSeconds(1));

        assertRefused(() -> files.serve(query), Reason.FORBIDDEN, "Invalid request.");
    }

    @Test
    void anotherFilesSignatureIsForbiddenAndAnotherExtensionIsNotFound() {
        FileValue first = keep("one", "text/plain", "a.txt");
        FileValue second = keep("two", "text/plain", "b.txt");
        ServeToolFileQuery firstQuery = queryOf(first);

        assertRefused(() -> files.serve(new ServeToolFileQuery(second.id(), ".txt", firstQuery.timestamp(),
                firstQuery.nonce(), firstQuery.sign())), Reason.FORBIDDEN, "Invalid request.");
        assertRefused(() -> files.serve(new ServeToolFileQuery(first.id(), ".png", firstQuery.timestamp(),
                firstQuery.nonce(), firstQuery.sign())), Reason.NOT_FOUND, "file is not found");
        assertRefused(() -> files.serve(new ServeToolFileQuery(null, null, null, null, null)), Reason.FORBIDDEN,
                "Invalid request.");
        assertThat(files.serve(new ServeToolFileQuery(first.id(), ".TXT", firstQuery.timestamp(),
                firstQuery.nonce(), firstQuery.sign())).bytes()).isEqualTo("one".getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void theCatalogueListsTheBuiltInsWithTheRegisteredServers() {
        InMemoryToolRegistryRepository registry = new InMemoryToolRegistryRepository();
        ListToolsService list = new ListToolsService(registry, List.of("time/current_time", "audio/tts"));
        new ManageMcpServersService(registry).register(new RegisterMcpServerCommand(new McpServer("search",
                new McpServer.StreamableHttp(URI.create("https://a.example/mcp"), Map.of()))));

        ToolCatalogue catalogue = list.list();

        assertThat(catalogue.builtIns()).containsExactly("time/current_time", "audio/tts");
        assertThat(catalogue.servers()).extracting(McpServer::name).containsExactly("search");
        assertThat(catalogue.bindings()).isEmpty();
    }

    private static void assertRefused(ThrowingCallable call, Reason reason, String message) {
        assertThatThrownBy(call).isInstanceOfSatisfying(ToolFileException.class, e -> {
            assertThat(e.reason()).isEqualTo(reason);
            assertThat(e.getMessage()).isEqualTo(message);
        });
    }
}
