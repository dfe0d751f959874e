package dev.hexaflow.application.tools.port.in;

/**
 * A tool file by its signed URL's parts: {@code /files/tools/{id}{extension}?timestamp=&nonce=&sign=}, as Dify's
 * {@code sign_tool_file} makes them.
 */
public record ServeToolFileQuery(String id, String extension, String timestamp, String nonce, String sign) {

    public ServeToolFileQuery {
        id = id == null ? "" : id;
        extension = extension == null ? "" : extension;
        timestamp = timestamp == null ? "" : timestamp;
        nonce = nonce == null ? "" : nonce;
        sign = sign == null ? "" : sign;
    }
}
