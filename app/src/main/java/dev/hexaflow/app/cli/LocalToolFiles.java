package dev.hexaflow.app.cli;

import dev.hexaflow.adapters.persistence.FileSystemBlobStore;
import dev.hexaflow.adapters.persistence.memory.InMemoryToolFileRepository;
import dev.hexaflow.application.tools.service.ToolFileService;
import dev.hexaflow.application.tools.service.ToolFilesKept;
import dev.hexaflow.workflow.nodes.StandardNodes;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;

/**
 * The files tools make under {@code hexaflow run} and {@code chat} (speech, an MCP server's image): kept as the
 * server keeps tool files, in a temporary folder of their own that outlives the command, and said once on standard
 * error. A file's {@code url} is where it is on this machine, as no server serves it; the folder is removed at the
 * end when no tool made a file.
 */
final class LocalToolFiles implements AutoCloseable {

    private final Path folder;
    private final ToolFileService files;

    private LocalToolFiles(Path folder, PrintStream err) {
        this.folder = folder;
        FileSystemBlobStore blobs = new FileSystemBlobStore(folder);
        AtomicBoolean told = new AtomicBoolean();
        this.files = new ToolFileService(blobs, new InMemoryToolFileRepository(), file -> {
            if (told.compareAndSet(false, true)) {
                err.println("hexaflow: the files tools make are kept in " + folder + " (left there when the "
                        + "command ends)");
            }
            return blobs.path(file.blobKey()).toString();
        }, Clock.systemUTC(), () -> UUID.randomUUID().toString());
    }

    /** A new temporary folder for the tool files. */
    static LocalToolFiles create(PrintStream err) {
        try {
            return new LocalToolFiles(Files.createTempDirectory("hexaflow-tool-files"), err);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot make a temporary folder for tool files", e);
        }
    }

    /** Every tool runner of the services, its files kept here. */
    StandardNodes.Services around(StandardNodes.Services services) {
        return ToolFilesKept.around(services, files);
    }

    /** Removes the folder if no file was kept in it. */
    @Override
    public void close() throws IOException {
        try (Stream<Path> kept = Files.list(folder)) {
            if (kept.findAny().isEmpty()) {
                Files.deleteIfExists(folder);
            }
        }
    }
}
