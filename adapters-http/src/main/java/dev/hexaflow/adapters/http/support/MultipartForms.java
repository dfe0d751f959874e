package dev.hexaflow.adapters.http.support;

import dev.hexaflow.application.common.ApiError;
import dev.hexaflow.application.common.ApiException;
import io.javalin.http.Context;
import io.javalin.http.UploadedFile;
import java.util.List;
import java.util.Locale;
import java.util.function.Supplier;

/** A Service API multipart form (an upload, audio to transcribe): its {@code file} parts and its {@code user}. */
public final class MultipartForms {

    public record Form(List<UploadedFile> files, String user) {
    }

    private MultipartForms() {
    }

    /**
     * The form; a body that is not multipart has no files and no user.
     *
     * @param tooLarge the route's refusal of a body Jetty gave up on for its size; any other unreadable body is
     *                 Dify's invalid_param
     */
    public static Form read(Context ctx, Supplier<ApiException> tooLarge) {
        try {
            boolean multipart = ctx.contentType() != null
                    && ctx.contentType().toLowerCase(Locale.ROOT).startsWith("multipart/form-data");
            return multipart ? new Form(ctx.uploadedFiles("file"), ctx.formParam("user")) : new Form(List.of(), null);
        } catch (Exception e) {
            // Jetty's ServletException for a body that is no multipart at all is checked, yet thrown here.
            // Jetty drops the connection of a multipart body it gave up on; the answer says so.
            ctx.header("Connection", "close");
            if (isTooLarge(e)) {
                throw tooLarge.get();
            }
            throw new ApiException(ApiError.INVALID_PARAM, "The multipart body cannot be read: " + rootMessage(e));
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
}
