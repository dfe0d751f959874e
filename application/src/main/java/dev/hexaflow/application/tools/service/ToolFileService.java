package dev.hexaflow.application.tools.service;

import dev.hexaflow.application.common.FileSignatures;
import dev.hexaflow.application.common.port.out.BlobStore;
import dev.hexaflow.application.tools.port.in.KeepToolFileCommand;
import dev.hexaflow.application.tools.port.in.KeepToolFileUseCase;
import dev.hexaflow.application.tools.port.in.ServeToolFileQuery;
import dev.hexaflow.application.tools.port.in.ServeToolFileUseCase;
import dev.hexaflow.application.tools.port.in.ToolFileException;
import dev.hexaflow.application.tools.port.out.ToolFileRepository;
import dev.hexaflow.domain.tool.ToolFile;
import dev.hexaflow.domain.tool.ToolMessage;
import dev.hexaflow.domain.workflow.FileValue;
import java.io.ByteArrayInputStream;
import java.time.Clock;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Tool files as Dify keeps and serves them: the bytes in the blob store, the file's record beside them, and a URL
 * signed as Dify's {@code sign_tool_file} signs it (see {@link FileSignatures}) that serves the file while it
 * lasts.
 */
public final class ToolFileService implements KeepToolFileUseCase, ServeToolFileUseCase {

    /** The most a tool file holds: speech of a long text, an image; not a data set. */
    public static final long MAX_BYTES = 50L * 1024 * 1024;

    private static final Map<String, String> EXTENSIONS = Map.ofEntries(Map.entry("audio/mpeg", ".mp3"),
            Map.entry("audio/mp3", ".mp3"), Map.entry("audio/wav", ".wav"), Map.entry("audio/x-wav", ".wav"),
            Map.entry("audio/ogg", ".ogg"), Map.entry("audio/webm", ".webm"), Map.entry("image/png", ".png"),
            Map.entry("image/jpeg", ".jpg"), Map.entry("image/gif", ".gif"), Map.entry("image/webp", ".webp"),
            Map.entry("image/svg+xml", ".svg"), Map.entry("application/pdf", ".pdf"),
            Map.entry("text/plain", ".txt"), Map.entry("application/json", ".json"),
            Map.entry("text/csv", ".csv"), Map.entry("text/html", ".html"), Map.entry("application/zip", ".zip"),
            Map.entry("application/vnd.openxmlformats-officedocument.wordprocessingml.document", ".docx"),
            Map.entry("application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", ".xlsx"),
            Map.entry("application/vnd.openxmlformats-officedocument.presentationml.presentation", ".pptx"));

    private final BlobStore blobs;
    private final ToolFileRepository files;
    private final FileSignatures signatures;
    private final Function<ToolFile, String> locate;
    private final Clock clock;
    private final Supplier<String> ids;

    /** @param ids new file ids (UUIDs, as Dify's route takes) */
    public ToolFileService(BlobStore blobs, ToolFileRepository files, FileSignatures signatures, Clock clock,
            Supplier<String> ids) {
        this(blobs, files, signatures, null, clock, ids);
    }

    /**
     * Tool files kept where no server serves them (the command line): each file's {@code url} is what
     * {@code locate} answers (where to find it), and none is served.
     */
    public ToolFileService(BlobStore blobs, ToolFileRepository files, Function<ToolFile, String> locate,
            Clock clock, Supplier<String> ids) {
        this(blobs, files, null, locate, clock, ids);
    }

    private ToolFileService(BlobStore blobs, ToolFileRepository files, FileSignatures signatures,
            Function<ToolFile, String> locate, Clock clock, Supplier<String> ids) {
        this.blobs = blobs;
        this.files = files;
        this.signatures = signatures;
        this.locate = locate != null ? locate : this::url;
        this.clock = clock;
        this.ids = ids;
    }

    @Override
    public FileValue keep(KeepToolFileCommand command) {
        ToolMessage.Blob blob = command.blob();
        String mimeType = blob.mimeType().split(";", 2)[0].strip().toLowerCase(Locale.ROOT);
        BlobStore.Stored stored;
        try {
            stored = blobs.put(new ByteArrayInputStream(blob.content()), MAX_BYTES);
        } catch (BlobStore.TooLargeException e) {
            throw new ToolFileException(ToolFileException.Reason.TOO_LARGE, "The tool made a file of more than "
                    + MAX_BYTES + " bytes, more than a tool file may hold");
        }
        String id = ids.get();
        ToolFile file = new ToolFile(id, stored.key(), blob.filename(), extension(blob.filename(), mimeType),
                mimeType, stored.size(), clock.instant().getEpochSecond());
        files.save(file);
        String url = locate.apply(file);
        return new FileValue(id, file.category(), "tool_file", null, id, file.name(), file.extension(),
                file.mimeType(), file.size(), url);
    }

    @Override
    public ToolFileContent serve(ServeToolFileQuery query) {
        if (signatures == null || !signatures.valid(query.id(), query.timestamp(), query.nonce(), query.sign())) {
            throw new ToolFileException(ToolFileException.Reason.FORBIDDEN, "Invalid request.");
        }
        ToolFile file = files.find(query.id()).filter(found -> found.extension().equalsIgnoreCase(
                query.extension())).orElseThrow(() -> new ToolFileException(ToolFileException.Reason.NOT_FOUND,
                        "file is not found"));
        return new ToolFileContent(blobs.read(file.blobKey()), file.name(), file.mimeType());
    }

    /** {@code /files/tools/{id}{extension}?timestamp=&nonce=&sign=}, as Dify's {@code sign_tool_file}. */
    private String url(ToolFile file) {
        return signatures.signed("/files/tools/" + file.id() + file.extension(), file.id());
    }

    /** The name's extension when it has one, else the MIME type's, as Dify's guess_extension. */
    private static String extension(String filename, String mimeType) {
        if (filename != null) {
            int dot = filename.lastIndexOf('.');
            String given = dot < 0 ? "" : filename.substring(dot);
            if (given.matches("\\.[A-Za-z0-9]{1,16}")) {
                return given.toLowerCase(Locale.ROOT);
            }
        }
        return EXTENSIONS.getOrDefault(mimeType, ".bin");
    }
}
