package dev.hexaflow.adapters.http.workflow;

import static dev.hexaflow.adapters.http.workflow.ServiceApiAuthentication.appId;
import static dev.hexaflow.adapters.http.workflow.ServiceApiAuthentication.user;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import dev.hexaflow.adapters.http.RouteGroup;
import dev.hexaflow.adapters.http.workflow.ServiceApiAuthentication.Access;
import dev.hexaflow.application.app.port.in.ApiError;
import dev.hexaflow.application.app.port.in.ApiException;
import dev.hexaflow.application.app.port.in.UploadFileUseCase;
import dev.hexaflow.application.app.port.in.UploadFileUseCase.UploadFileCommand;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import io.javalin.http.UploadedFile;
import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.Locale;

/** Uploads under {@code /v1/files/upload}: one multipart {@code file} part and the {@code user} field. */
public final class UploadRoutes implements RouteGroup {

    private final UploadFileUseCase upload;

    public UploadRoutes(UploadFileUseCase upload) {
        this.upload = upload;
    }

    @Override
    public void addTo(RoutesConfig routes) {
        routes.post("/v1/files/upload", this::upload, Access.UPLOAD);
    }

    private void upload(Context ctx) {
        List<UploadedFile> parts;
        String user;
        try {
            boolean multipart = ctx.contentType() != null
                    && ctx.contentType().toLowerCase(Locale.ROOT).startsWith("multipart/form-data");
            parts = multipart ? ctx.uploadedFiles("file") : List.of();
            user = multipart ? ctx.formParam("user") : null;
        } catch (Exception e) {
            // Jetty's ServletException for a body that is no multipart at all is checked, yet thrown here.
            // Jetty drops the connection of a multipart body it gave up on; the answer says so.
            ctx.header("Connection", "close");
            if (isTooLarge(e)) {
                throw new ApiException(ApiError.FILE_TOO_LARGE, "File size exceeded.");
            }
            throw new ApiException(ApiError.INVALID_PARAM, "The multipart body cannot be read: "
                    + rootMessage(e));
        }
        UploadedFile part = parts.size() == 1 ? parts.get(0) : null;
        try (InputStream content = part == null ? InputStream.nullInputStream() : part.content()) {
            dev.hexaflow.domain.app.UploadedFile file = upload.upload(new UploadFileCommand(appId(ctx), user(ctx, user),
                    parts.size(), part == null ? null : part.filename(), part == null ? null : part.contentType(),
                    content));
            ServiceApiBodies.json(ctx, 201, FileBody.of(file));
        } catch (IOException e) {
            throw new ApiException(ApiError.INVALID_PARAM, "The uploaded file cannot be read");
        }
    }

    private static boolean isTooLarge(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            String message = String.valueOf(t.getMessage()).toLowerCase(Locale.ROOT);
            if (message.contains("exceeds") || message.contains("too large") || message.contains("max")) {
                return true;
            }
        }
        return false;
    }

    private static String rootMessage(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null) {
            t = t.getCause();
        }
        return String.valueOf(t.getMessage());
    }

    /** Dify's FileResponse; what only Dify's console fills in (previews, tenant, conversation) is null. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record FileBody(String id, String name, long size, String extension, String mimeType, String createdBy,
            long createdAt, String previewUrl, String sourceUrl, String originalUrl, String userId, String tenantId,
            String conversationId, String fileKey) {

        static FileBody of(dev.hexaflow.domain.app.UploadedFile file) {
            return new FileBody(file.id(), file.name(), file.size(), file.extension(), file.mimeType(),
                    file.endUserId(), file.createdAt(), null, null, null, file.endUserId(), null, null, null);
        }
    }
}
