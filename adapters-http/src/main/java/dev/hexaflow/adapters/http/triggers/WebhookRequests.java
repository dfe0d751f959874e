package dev.hexaflow.adapters.http.triggers;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.hexaflow.application.triggers.port.in.CallWebhookUseCase.WebhookRefused;
import dev.hexaflow.domain.trigger.WebhookCall;
import io.javalin.http.Context;
import io.javalin.http.UploadedFile;
import java.io.IOException;
import java.io.InputStream;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A webhook request as the triggers context takes it: its method, headers and query, and its body read within the
 * limit and parsed by its content type as Dify's webhook service parses it (JSON, the default without a
 * Content-Type; form fields; multipart fields, its files described; any other type as text). The body is only
 * parsed here: it is data, never read as a template or a command.
 */
final class WebhookRequests {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final long maxBodyBytes;

    WebhookRequests(long maxBodyBytes) {
        this.maxBodyBytes = maxBodyBytes;
    }

    WebhookCall read(Context ctx) {
        long declared = ctx.req().getContentLengthLong();
        if (declared > maxBodyBytes) {
            throw tooLarge(declared);
        }
        String type = mediaType(ctx.contentType());
        Map<String, List<String>> headers = new LinkedHashMap<>();
        Collections.list(ctx.req().getHeaderNames()).forEach(name -> headers.put(name,
                Collections.list(ctx.req().getHeaders(name))));
        Map<String, List<String>> query = new LinkedHashMap<>(ctx.queryParamMap());
        if (type.equals("multipart/form-data")) {
            return multipart(ctx, headers, query);
        }
        byte[] raw = body(ctx);
        return new WebhookCall(ctx.method().name(), ctx.contentType(), headers, query, parsed(type, raw), Map.of(),
                raw);
    }

    /** The body, at most the limit: one longer than its declared length (or sent without one) is refused. */
    private byte[] body(Context ctx) {
        try (InputStream in = ctx.req().getInputStream()) {
            byte[] raw = in.readNBytes((int) Math.min(Integer.MAX_VALUE - 8, maxBodyBytes + 1));
            if (raw.length > maxBodyBytes) {
                throw tooLarge(raw.length);
            }
            return raw;
        } catch (IOException e) {
            throw new WebhookRefused(400, "Bad Request", "The request's body could not be read");
        }
    }

    private WebhookRefused tooLarge(long size) {
        return new WebhookRefused(413, "Request Entity Too Large", "Webhook request too large: " + size
                + " bytes exceeds maximum allowed size of " + maxBodyBytes + " bytes");
    }

    private static Object parsed(String type, byte[] raw) {
        String text = new String(raw, StandardCharsets.UTF_8);
        switch (type) {
            case "application/json" -> {
                if (text.isBlank()) {
                    return Map.of();
                }
                try {
                    return JSON.readValue(text, Object.class);
                } catch (JsonProcessingException e) {
                    throw new WebhookRefused(400, "Bad Request", "Invalid JSON body: " + e.getOriginalMessage());
                }
            }
            case "application/x-www-form-urlencoded" -> {
                try {
                    return form(text);
                } catch (IllegalArgumentException e) {
                    throw new WebhookRefused(400, "Bad Request", "The form body cannot be read: a bad %-escape");
                }
            }
            case "application/octet-stream" -> {
                return raw.length == 0 ? null : Map.of("size", raw.length, "mime_type", "application/octet-stream");
            }
            default -> {
                return text;
            }
        }
    }

    /** Form fields, the first of each name, as Flask's {@code dict(request.form)} takes them. */
    private static Map<String, String> form(String text) {
        Map<String, String> fields = new LinkedHashMap<>();
        for (String pair : text.split("&")) {
            if (pair.isEmpty()) {
                continue;
            }
            int eq = pair.indexOf('=');
            String name = URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8);
            String value = eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
            fields.putIfAbsent(name, value);
        }
        return fields;
    }

    /** A multipart body: its fields, and each file part described (its name, type and size). */
    private static WebhookCall multipart(Context ctx, Map<String, List<String>> headers,
            Map<String, List<String>> query) {
        Map<String, String> fields = new LinkedHashMap<>();
        Map<String, Object> files = new LinkedHashMap<>();
        try {
            ctx.formParamMap().forEach((name, values) -> fields.put(name, values.isEmpty() ? "" : values.get(0)));
            for (Map.Entry<String, List<UploadedFile>> part : ctx.uploadedFileMap().entrySet()) {
                UploadedFile file = part.getValue().get(0);
                files.put(part.getKey(), Map.of("filename", file.filename(), "mime_type",
                        file.contentType() == null ? "application/octet-stream" : file.contentType(), "size",
                        file.size()));
            }
        } catch (Exception e) {
            // Jetty's ServletException for a body that is no multipart at all (no boundary) is checked, yet thrown
            // here; it drops the connection of a body it gave up on, and the answer says so.
            ctx.header("Connection", "close");
            throw new WebhookRefused(400, "Bad Request", "The multipart body cannot be read");
        }
        return new WebhookCall(ctx.method().name(), ctx.contentType(), headers, query, fields, files, new byte[0]);
    }

    static String mediaType(String contentType) {
        if (contentType == null || contentType.isBlank()) {
            return "application/json";
        }
        return contentType.split(";", 2)[0].strip().toLowerCase(Locale.ROOT);
    }

    static boolean isJson(String text) {
        try {
            JSON.readTree(text);
            return true;
        } catch (JsonProcessingException e) {
            return false;
        }
    }

}
