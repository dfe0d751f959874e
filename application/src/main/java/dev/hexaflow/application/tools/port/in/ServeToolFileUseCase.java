package dev.hexaflow.application.tools.port.in;

/** Answers a tool file's bytes to whoever holds its signed URL, while the URL lasts. */
public interface ServeToolFileUseCase {

    /** @throws ToolFileException FORBIDDEN for a signature this server did not make or one too old, NOT_FOUND */
    ToolFileContent serve(ServeToolFileQuery query);

    /** The file's bytes, with the name and type it is served as. */
    record ToolFileContent(byte[] bytes, String name, String mimeType) {
    }
}
