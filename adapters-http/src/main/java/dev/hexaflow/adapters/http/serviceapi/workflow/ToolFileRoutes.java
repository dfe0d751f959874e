package dev.hexaflow.adapters.http.serviceapi.workflow;

import dev.hexaflow.adapters.http.server.RouteGroup;
import dev.hexaflow.adapters.http.support.HttpRefusal;
import dev.hexaflow.application.tools.port.in.ServeToolFileQuery;
import dev.hexaflow.application.tools.port.in.ServeToolFileUseCase;
import dev.hexaflow.application.tools.port.in.ToolFileException;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;

/**
 * Tool files at their signed URLs, as Dify serves them: {@code GET /files/tools/{id}.{ext}?timestamp=&nonce=
 * &sign=} (and {@code as_attachment=true} to download). The signature is the key: no API key is asked.
 */
public final class ToolFileRoutes implements RouteGroup {

    private final ServeToolFileUseCase files;

    public ToolFileRoutes(ServeToolFileUseCase files) {
        this.files = files;
    }

    @Override
    public void addTo(RoutesConfig routes) {
        routes.get("/files/tools/{file}", this::serve);
    }

    private void serve(Context ctx) {
        String file = ctx.pathParam("file");
        int dot = file.indexOf('.');
        ServeToolFileQuery query = new ServeToolFileQuery(dot < 0 ? file : file.substring(0, dot),
                dot < 0 ? "" : file.substring(dot), ctx.queryParam("timestamp"), ctx.queryParam("nonce"),
                ctx.queryParam("sign"));
        ServeToolFileUseCase.ToolFileContent content;
        try {
            content = files.serve(query);
        } catch (ToolFileException e) {
            throw switch (e.reason()) {
                case FORBIDDEN -> new HttpRefusal(403, "forbidden", e.getMessage());
                default -> HttpRefusal.notFound(e.getMessage());
            };
        }
        // Served as its own type, never sniffed into HTML; a download when asked, as Dify's as_attachment.
        ctx.header("X-Content-Type-Options", "nosniff");
        ctx.header("Content-Security-Policy", "sandbox");
        ctx.header("Cache-Control", "private, max-age=300");
        if ("true".equalsIgnoreCase(ctx.queryParam("as_attachment"))) {
            ctx.header("Content-Disposition", "attachment; filename*=UTF-8''"
                    + URLEncoder.encode(content.name(), StandardCharsets.UTF_8).replace("+", "%20"));
        }
        ctx.status(200).contentType(content.mimeType()).result(content.bytes());
    }
}
