package dev.hexaflow.domain.trigger;

import dev.hexaflow.domain.trigger.WebhookSpec.Parameter;
import dev.hexaflow.domain.workflow.DataTree;
import dev.hexaflow.domain.workflow.InvalidNodeDataException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/** Reads a {@code trigger-webhook} node's data into a {@link WebhookSpec}, with the defaults Dify's model has. */
final class WebhookSpecReader {

    /** Each list of parameters, with the types Dify allows in it and the word its refusal uses. */
    private enum ParameterList {
        HEADERS("headers", "header", EnumSet.of(WebhookParameterType.STRING)),
        PARAMS("params", "query", EnumSet.of(WebhookParameterType.STRING, WebhookParameterType.NUMBER,
                WebhookParameterType.BOOLEAN)),
        BODY("body", "body", EnumSet.allOf(WebhookParameterType.class));

        private final String key;
        private final String word;
        private final Set<WebhookParameterType> allowed;

        ParameterList(String key, String word, Set<WebhookParameterType> allowed) {
            this.key = key;
            this.word = word;
            this.allowed = allowed;
        }
    }

    private WebhookSpecReader() {
    }

    static WebhookSpec read(DataTree data) {
        String method = data.string("method", "get");
        String contentType = data.string("content_type", WebhookContentType.JSON.wireName());
        return new WebhookSpec(
                WebhookMethod.fromWireName(method).orElseThrow(() -> new InvalidNodeDataException("method",
                        "must be one of get, post, head, patch, put, delete, was '" + method + "'")),
                WebhookContentType.fromWireName(contentType).orElseThrow(() -> new InvalidNodeDataException(
                        "content_type", "must be one of application/json, multipart/form-data, "
                        + "application/x-www-form-urlencoded, text/plain, application/octet-stream, was '"
                        + contentType + "'")),
                parameters(data, ParameterList.HEADERS),
                parameters(data, ParameterList.PARAMS),
                parameters(data, ParameterList.BODY),
                clampedToInt(data.longValue("status_code", 200)),
                data.string("response_body", ""),
                data.bool("async_mode", true),
                Duration.ofSeconds(data.longValue("timeout", 30)));
    }

    private static List<Parameter> parameters(DataTree data, ParameterList list) {
        List<Parameter> parameters = new ArrayList<>();
        List<DataTree> items = data.trees(list.key);
        for (int i = 0; i < items.size(); i++) {
            String at = list.key + "[" + i + "]";
            try {
                parameters.add(parameter(items.get(i), list));
            } catch (InvalidNodeDataException e) {
                throw e.within(at);
            }
        }
        return parameters;
    }

    private static Parameter parameter(DataTree item, ParameterList list) {
        String name = item.string("name");
        if (name.isBlank()) {
            throw new InvalidNodeDataException("name", "is missing");
        }
        String typeName = item.string("type", WebhookParameterType.STRING.wireName());
        WebhookParameterType type = WebhookParameterType.fromWireName(typeName)
                .filter(list.allowed::contains)
                .orElseThrow(() -> new InvalidNodeDataException("type",
                        "Unsupported webhook " + list.word + " parameter type: " + typeName));
        return new Parameter(name, type, item.bool("required", false));
    }

    /** Out of int's range is out of the status range too; the spec refuses it naming the field. */
    private static int clampedToInt(long value) {
        return (int) Math.max(Integer.MIN_VALUE, Math.min(Integer.MAX_VALUE, value));
    }
}
