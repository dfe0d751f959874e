package dev.hexaflow.adapters.http.serviceapi.workflow;

import dev.hexaflow.adapters.http.server.RouteGroup;
import dev.hexaflow.application.files.port.in.PreviewUploadUseCase.PreviewUploadQuery;
import dev.hexaflow.application.files.port.in.PreviewUploadUseCase;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;

/**
 * Uploads at their signed preview URLs, as Dify serves them: {@code GET /files/{id}/file-preview?timestamp=
 * &nonce=&sign=} (and {@code as_attachment=true} to download). The signature is the key: no API key is asked.
 */
public final class FilePreviewRoutes implements RouteGroup {

    private final PreviewUploadUseCase uploads;

    public FilePreviewRoutes(PreviewUploadUseCase uploads) {
        this.uploads = uploads;
    }

    @Override
    public void addTo(RoutesConfig routes) {
        routes.get("/files/{id}/file-preview", this::preview);
    }

    private void preview(Context ctx) {
        PreviewUploadUseCase.UploadContent content = uploads.preview(new PreviewUploadQuery(ctx.pathParam("id"),
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
}
