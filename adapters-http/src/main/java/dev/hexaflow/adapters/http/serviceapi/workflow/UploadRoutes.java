package dev.hexaflow.adapters.http.serviceapi.workflow;

import static dev.hexaflow.adapters.http.serviceapi.ServiceApiAuthentication.appId;
import static dev.hexaflow.adapters.http.serviceapi.ServiceApiAuthentication.user;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import dev.hexaflow.adapters.http.server.RouteGroup;
import dev.hexaflow.adapters.http.serviceapi.ServiceApiAuthentication.Access;
import dev.hexaflow.adapters.http.serviceapi.ServiceApiAuthentication;
import dev.hexaflow.adapters.http.serviceapi.ServiceApiBodies;
import dev.hexaflow.adapters.http.support.MultipartForms;
import dev.hexaflow.application.common.ApiError;
import dev.hexaflow.application.common.ApiException;
import dev.hexaflow.application.files.port.in.UploadFileUseCase.UploadFileCommand;
import dev.hexaflow.application.files.port.in.UploadFileUseCase;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import io.javalin.http.UploadedFile;
import java.io.IOException;
import java.io.InputStream;
import java.util.List;

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
        MultipartForms.Form form = MultipartForms.read(ctx,
                () -> new ApiException(ApiError.FILE_TOO_LARGE, "File size exceeded."));
        List<UploadedFile> parts = form.files();
        String user = form.user();
        UploadedFile part = parts.size() == 1 ? parts.get(0) : null;
        try (InputStream content = part == null ? InputStream.nullInputStream() : part.content()) {
            dev.hexaflow.domain.app.UploadedFile file = upload.upload(new UploadFileCommand(appId(ctx), user(ctx, user),
                    parts.size(), part == null ? null : part.filename(), part == null ? null : part.contentType(),
                    content, ServiceApiAuthentication.fromPage(ctx)));
            ServiceApiBodies.json(ctx, 201, FileBody.of(file));
        } catch (IOException e) {
            throw new ApiException(ApiError.INVALID_PARAM, "The uploaded file cannot be read");
        }
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
