package dev.hexaflow.adapters.http.serviceapi.workflow;

import static dev.hexaflow.adapters.http.serviceapi.ServiceApiAuthentication.appId;

import dev.hexaflow.adapters.http.server.RouteGroup;
import dev.hexaflow.adapters.http.serviceapi.ServiceApiAuthentication.Access;
import dev.hexaflow.application.common.ApiError;
import dev.hexaflow.application.common.ApiException;
import dev.hexaflow.application.files.port.in.PreviewUploadUseCase.AppFileQuery;
import dev.hexaflow.application.files.port.in.PreviewUploadUseCase.PreviewUploadQuery;
import dev.hexaflow.application.files.port.in.PreviewUploadUseCase.UploadContent;
import dev.hexaflow.application.files.port.in.PreviewUploadUseCase;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Set;

/**
 * Uploads at their signed preview URLs, as Dify serves them: {@code GET /files/{id}/file-preview?timestamp=
 * &nonce=&sign=} (and {@code as_attachment=true} to download). The signature is the key: no API key is asked. And
 * Dify's {@code GET /v1/files/{file_id}/preview}: an upload of the key's app by its id, with Dify's headers.
 */
public final class FilePreviewRoutes implements RouteGroup {

    /** The types Dify answers with {@code Accept-Ranges: bytes}, so that a player may seek. */
    private static final Set<String> SEEKABLE = Set.of("audio/mpeg", "audio/wav", "audio/mp4", "audio/ogg",
            "audio/flac", "audio/aac", "video/mp4", "video/webm", "video/quicktime", "audio/x-m4a");
    private static final Set<String> TRUE = Set.of("true", "1", "yes", "on", "t", "y");
    private static final Set<String> FALSE = Set.of("false", "0", "no", "off", "f", "n");

    private final PreviewUploadUseCase uploads;

    public FilePreviewRoutes(PreviewUploadUseCase uploads) {
        this.uploads = uploads;
    }

    @Override
    public void addTo(RoutesConfig routes) {
        routes.get("/files/{id}/file-preview", this::preview);
        // An app's key alone: a page's token would reach every end user's files of the app.
        routes.get("/v1/files/{file_id}/preview", this::appPreview, Access.READ_RUNS);
    }

    private void preview(Context ctx) {
        UploadContent content = uploads.preview(new PreviewUploadQuery(ctx.pathParam("id"),
                ctx.queryParam("timestamp"), ctx.queryParam("nonce"), ctx.queryParam("sign")));
        // Served as its own type, never sniffed into HTML; a download when asked, as Dify's as_attachment.
        ctx.header("X-Content-Type-Options", "nosniff");
        ctx.header("Content-Security-Policy", "sandbox");
        ctx.header("Cache-Control", "private, max-age=300");
        if ("true".equalsIgnoreCase(ctx.queryParam("as_attachment"))) {
            ctx.header("Content-Disposition", "attachment; filename*=UTF-8''"
                    + URLEncoder.encode(content.name(), StandardCharsets.UTF_8).replace("+", "%20"));
        }
        String type = content.mimeType() == null || content.mimeType().isBlank() ? "application/octet-stream"
                : content.mimeType();
        ctx.status(200).contentType(type).result(content.bytes());
    }

    /** As Dify's FilePreviewApi builds its answer; HTML is always a download, as enforce_download_for_html has it. */
    private void appPreview(Context ctx) {
        boolean attachment = flag(ctx.queryParam("as_attachment"));
        UploadContent content = uploads.previewForApp(new AppFileQuery(appId(ctx), ctx.pathParam("file_id")));
        String type = content.mimeType() == null || content.mimeType().isBlank() ? "application/octet-stream"
                : content.mimeType();
        if (SEEKABLE.contains(type)) {
            ctx.header("Accept-Ranges", "bytes");
        }
        if (attachment || html(type, content.name(), content.extension())) {
            ctx.header("Content-Disposition", "attachment; filename*=UTF-8''" + quote(content.name()));
            type = "application/octet-stream";
        }
        ctx.header("X-Content-Type-Options", "nosniff");
        ctx.header("Content-Security-Policy", "sandbox");
        ctx.header("Cache-Control", "public, max-age=3600");
        ctx.status(200).contentType(type).result(content.bytes());
    }

    /** A query flag as pydantic reads a bool; anything else is the client's mistake. */
    private static boolean flag(String text) {
        if (text == null) {
            return false;
        }
        String word = text.strip().toLowerCase(Locale.ROOT);
        if (TRUE.contains(word)) {
            return true;
        }
        if (FALSE.contains(word)) {
            return false;
        }
        throw new ApiException(ApiError.INVALID_PARAM, "as_attachment must be a boolean");
    }

    private static boolean html(String type, String name, String extension) {
        String bare = type.split(";", 2)[0].strip().toLowerCase(Locale.ROOT);
        String ext = extension == null || extension.isBlank() ? extensionOf(name) : extension;
        ext = ext.startsWith(".") ? ext.substring(1) : ext;
        return bare.equals("text/html") || bare.equals("application/xhtml+xml")
                || ext.equalsIgnoreCase("html") || ext.equalsIgnoreCase("htm");
    }

    private static String extensionOf(String name) {
        int dot = name == null ? -1 : name.lastIndexOf('.');
        return dot < 0 ? "" : name.substring(dot + 1);
    }

    /** Python's urllib.parse.quote: every UTF-8 byte escaped but letters, digits, {@code _.-~} and {@code /}. */
    static String quote(String text) {
        StringBuilder quoted = new StringBuilder();
        for (byte b : text.getBytes(StandardCharsets.UTF_8)) {
            char c = (char) (b & 0xff);
            if (c < 0x80 && (Character.isLetterOrDigit(c) || "_.-~/".indexOf(c) >= 0)) {
                quoted.append(c);
            } else {
                quoted.append('%').append(String.format("%02X", b & 0xff));
            }
        }
        return quoted.toString();
    }
}
