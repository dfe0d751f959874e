package dev.hexaflow.workflow.nodes;

import dev.hexaflow.workflow.engine.NodeExecutor;
import dev.hexaflow.workflow.engine.NodeFailure;
import dev.hexaflow.workflow.engine.NodeResult;
import dev.hexaflow.workflow.engine.PreparedNode;
import dev.hexaflow.workflow.port.out.HttpRequester;
import dev.hexaflow.workflow.port.out.HttpRequester.HttpAnswer;
import dev.hexaflow.workflow.port.out.HttpRequester.HttpCall;
import dev.hexaflow.domain.workflow.DataTree;
import dev.hexaflow.domain.workflow.FileValue;
import dev.hexaflow.domain.workflow.InvalidNodeDataException;
import dev.hexaflow.domain.workflow.Node;
import dev.hexaflow.domain.workflow.NodeType;
import dev.hexaflow.domain.workflow.VariablePool;
import dev.hexaflow.domain.workflow.VariableSelector;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/**
 * http-request: builds the request from its data as Dify does (url, headers and params as one {@code key:value}
 * per line, references rendered everywhere, api-key auth as basic, bearer or a custom header, bodies none,
 * form-data, x-www-form-urlencoded, raw-text, json or binary), sends it, and answers {@code status_code},
 * {@code body}, {@code headers} and {@code files}. A 4xx or 5xx answer is a result, not a failure.
 */
public final class HttpRequestNode implements NodeExecutor {

    static final Set<String> METHODS = Set.of("get", "post", "put", "patch", "delete", "head", "options");
    static final long MAX_TEXT_BYTES = 1024 * 1024;
    static final long MAX_BINARY_BYTES = 10 * 1024 * 1024;

    private final HttpRequester requester;

    public HttpRequestNode(HttpRequester requester) {
        this.requester = requester;
    }

    @Override
    public NodeType type() {
        return NodeType.HTTP_REQUEST;
    }

    @Override
    public PreparedNode prepare(Node node) {
        DataTree data = node.data();
        String method = data.string("method", "get").toLowerCase(Locale.ROOT);
        if (!METHODS.contains(method)) {
            throw new InvalidNodeDataException("method", "'" + method + "' is not one of " + METHODS);
        }
        String url = data.string("url");
        String headers = data.string("headers", "");
        String params = data.string("params", "");
        DataTree auth = data.tree("authorization");
        DataTree body = data.tree("body");
        String bodyType = body.string("type", "none");
        if (!Set.of("none", "form-data", "x-www-form-urlencoded", "raw-text", "json", "binary").contains(bodyType)) {
            throw new InvalidNodeDataException("body.type", "'" + bodyType + "' is not a body type");
        }
        DataTree timeout = data.tree("timeout");
        Duration connect = seconds(timeout, "connect", 10);
        Duration read = seconds(timeout, "read", 60);
        boolean verify = data.bool("ssl_verify", true);
        List<VariableSelector> references = new ArrayList<>();
        for (String text : List.of(url, headers, params, auth.tree("config").string("api_key", ""))) {
            references.addAll(VariablePool.references(text));
        }
        for (DataTree item : bodyItems(body)) {
            references.addAll(VariablePool.references(item.string("value", "")));
            item.optionalSelector("file").ifPresent(references::add);
        }
        return PreparedNode.of(references, Optional.of(Set.of("status_code", "body", "headers", "files")), context -> {
            VariablePool pool = context.pool();
            List<Map.Entry<String, String>> headerList = new ArrayList<>(lines(pool.render(headers)));
            String target = withParams(RequestUrl.of(pool.render(url).strip()), lines(pool.render(params)));
            authorize(auth, pool, headerList);
            byte[] payload = body(bodyType, bodyItems(body), pool, headerList);
            HttpCall call = new HttpCall(method.toUpperCase(Locale.ROOT), target, headerList, payload, connect,
                    read, verify, MAX_BINARY_BYTES);
            HttpAnswer answer;
            try {
                answer = requester.send(call, context);
            } catch (HttpRequester.HttpException e) {
                throw new NodeFailure("HttpRequestNodeError", e.getMessage(), e);
            }
            Map<String, Object> request = new LinkedHashMap<>();
            request.put("request", call.method() + " " + target);
            return new NodeResult(Map.of(), request, outputs(answer, target), null, 0, null);
        });
    }

    /** The answer as the node's outputs: a text body as {@code body}, any other as a file of {@code files}. */
    private static Map<String, Object> outputs(HttpAnswer answer, String target) {
        Map<String, Object> responseHeaders = new LinkedHashMap<>();
        answer.headers().forEach((name, values) -> responseHeaders.put(name, String.join(", ", values)));
        Map<String, Object> outputs = new LinkedHashMap<>();
        outputs.put("status_code", (long) answer.status());
        List<Object> files = new ArrayList<>();
        if (isText(answer.contentType())) {
            if (answer.body().length > MAX_TEXT_BYTES) {
                throw new NodeFailure("ResponseSizeError", String.format(Locale.ROOT,
                        "Text size is too large, max size is %.2f MB, but current size is %.2f MB.",
                        MAX_TEXT_BYTES / 1048576.0, answer.body().length / 1048576.0), null);
            }
            outputs.put("body", new String(answer.body(), StandardCharsets.UTF_8));
        } else {
            outputs.put("body", "");
            files.add(responseFile(answer, target));
        }
        outputs.put("headers", responseHeaders);
        outputs.put("files", files);
        return outputs;
    }

    private static Duration seconds(DataTree timeout, String key, long otherwise) {
        long value = timeout.longValue(key, otherwise);
        return Duration.ofSeconds(value <= 0 ? otherwise : value);
    }

    private static List<DataTree> bodyItems(DataTree body) {
        Object data = body.get("data");
        if (data instanceof String legacy) {
            return List.of(DataTree.of(Map.of("type", "text", "value", legacy)));
        }
        return body.trees("data");
    }

    /** Dify's line format: one {@code key:value} per line, split at the first colon, blank lines skipped. */
    static List<Map.Entry<String, String>> lines(String text) {
        List<Map.Entry<String, String>> entries = new ArrayList<>();
        for (String line : text.split("\n")) {
            if (line.isBlank()) {
                continue;
            }
            int colon = line.indexOf(':');
            String key = (colon < 0 ? line : line.substring(0, colon)).strip();
            String value = colon < 0 ? "" : line.substring(colon + 1).strip();
            if (!key.isEmpty()) {
                entries.add(new AbstractMap.SimpleEntry<>(key, value));
            }
        }
        return entries;
    }

    private static String withParams(String url, List<Map.Entry<String, String>> params) {
        if (params.isEmpty()) {
            return url;
        }
        StringBuilder query = new StringBuilder();
        for (Map.Entry<String, String> param : params) {
            query.append(query.length() == 0 ? "" : "&").append(encode(param.getKey())).append('=')
                    .append(encode(param.getValue()));
        }
        return url + (url.contains("?") ? "&" : "?") + query;
    }

    private static void authorize(DataTree auth, VariablePool pool, List<Map.Entry<String, String>> headers) {
        if (!auth.string("type", "no-auth").equals("api-key")) {
            return;
        }
        DataTree config = auth.tree("config");
        String key = pool.render(config.string("api_key", ""));
        String header = config.string("header", "");
        String kind = config.string("type", "bearer");
        String name = header.isBlank() ? "Authorization" : header;
        String value = switch (kind) {
            case "basic" -> "Basic " + (key.contains(":")
                    ? Base64.getEncoder().encodeToString(key.getBytes(StandardCharsets.UTF_8)) : key);
            case "custom" -> key;
            default -> "Bearer " + key;
        };
        headers.removeIf(entry -> entry.getKey().equalsIgnoreCase(name));
        headers.add(new AbstractMap.SimpleEntry<>(name, value));
    }

    private static byte[] body(String type, List<DataTree> items, VariablePool pool,
            List<Map.Entry<String, String>> headers) {
        switch (type) {
            case "json", "raw-text" -> {
                String text = items.isEmpty() ? "" : pool.render(items.get(0).string("value", ""));
                contentType(headers, type.equals("json") ? "application/json" : "text/plain");
                return text.getBytes(StandardCharsets.UTF_8);
            }
            case "x-www-form-urlencoded" -> {
                StringBuilder form = new StringBuilder();
                for (DataTree item : items) {
                    form.append(form.length() == 0 ? "" : "&").append(encode(pool.render(item.string("key", ""))))
                            .append('=').append(encode(pool.render(item.string("value", ""))));
                }
                contentType(headers, "application/x-www-form-urlencoded");
                return form.toString().getBytes(StandardCharsets.UTF_8);
            }
            case "form-data" -> {
                String boundary = "----hexaflow" + UUID.randomUUID().toString().replace("-", "");
                StringBuilder parts = new StringBuilder();
                for (DataTree item : items) {
                    String value = item.string("type", "text").equals("file")
                            ? item.optionalSelector("file").flatMap(pool::get).map(HttpRequestNode::fileName)
                                    .orElse("")
                            : pool.render(item.string("value", ""));
                    parts.append("--").append(boundary).append("\r\n")
                            .append("Content-Disposition: form-data; name=\"")
                            .append(pool.render(item.string("key", "")).replace("\"", "%22")).append("\"\r\n\r\n")
                            .append(value).append("\r\n");
                }
                parts.append("--").append(boundary).append("--\r\n");
                contentType(headers, "multipart/form-data; boundary=" + boundary);
                return parts.toString().getBytes(StandardCharsets.UTF_8);
            }
            case "binary" -> throw new NodeFailure("RequestBodyError",
                    "binary bodies need the file store of the server; send the file's URL instead", null);
            default -> {
                return new byte[0];
            }
        }
    }

    private static String fileName(Object value) {
        return value instanceof FileValue file ? file.filename() : String.valueOf(value);
    }

    private static void contentType(List<Map.Entry<String, String>> headers, String type) {
        if (headers.stream().noneMatch(h -> h.getKey().equalsIgnoreCase("Content-Type"))) {
            headers.add(new AbstractMap.SimpleEntry<>("Content-Type", type));
        }
    }

    private static boolean isText(String contentType) {
        String type = contentType.toLowerCase(Locale.ROOT);
        return type.isEmpty() || type.startsWith("text/") || type.contains("json") || type.contains("xml")
                || type.contains("javascript") || type.contains("x-www-form-urlencoded") || type.contains("yaml");
    }

    private static FileValue responseFile(HttpAnswer answer, String url) {
        String path = url.replaceAll("[?#].*$", "");
        String name = path.substring(path.lastIndexOf('/') + 1);
        int dot = name.lastIndexOf('.');
        String mime = answer.contentType().split(";", 2)[0].strip();
        String kind = mime.startsWith("image/") ? "image" : mime.startsWith("audio/") ? "audio"
                : mime.startsWith("video/") ? "video" : "document";
        return new FileValue(UUID.randomUUID().toString(), kind, "tool_file", url, null,
                name.isEmpty() ? "file" : name, dot < 0 ? "" : name.substring(dot), mime, answer.body().length, url);
    }

    private static String encode(String text) {
        return URLEncoder.encode(text, StandardCharsets.UTF_8);
    }
}
