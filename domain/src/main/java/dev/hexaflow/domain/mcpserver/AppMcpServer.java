package dev.hexaflow.domain.mcpserver;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * An app published as an MCP server, Dify's {@code AppMCPServer}: off until an operator turns it on, answered at
 * {@code /mcp/server/{code}/mcp}, where the unguessable code is the caller's only credential.
 *
 * @param code        the last secret part of its URL, {@link #CODE_LENGTH} lowercase letters and digits
 * @param description the tool's description and the server's instructions (the app's description when not set)
 * @param parameters  a description per input variable of the app's form, shown in the tool's input schema
 * @param createdAt   Unix seconds
 * @param updatedAt   Unix seconds
 */
public record AppMcpServer(String id, String appId, String code, String description, boolean enabled,
        Map<String, String> parameters, long createdAt, long updatedAt) {

    /** Characters of a URL's code: 32 lowercase letters and digits from a cryptographic source, as a webhook's. */
    public static final int CODE_LENGTH = 32;
    /** The longest description kept, in characters. */
    public static final int MAX_DESCRIPTION = 10_000;
    /** The most input descriptions kept, and the longest of each. */
    public static final int MAX_PARAMETERS = 200;
    public static final int MAX_PARAMETER_DESCRIPTION = 2_000;
    /** The longest input name a description is kept for. */
    public static final int MAX_VARIABLE = 255;

    public AppMcpServer {
        if (id == null || appId == null || !isCode(code)) {
            throw new IllegalArgumentException("an MCP server has an id, an app and a code of " + CODE_LENGTH
                    + " letters and digits");
        }
        description = description == null ? "" : description;
        if (description.length() > MAX_DESCRIPTION) {
            throw new IllegalArgumentException("description is longer than " + MAX_DESCRIPTION + " characters");
        }
        parameters = parameters == null ? Map.of() : new LinkedHashMap<>(parameters);
        if (parameters.size() > MAX_PARAMETERS) {
            throw new IllegalArgumentException("parameters describe more than " + MAX_PARAMETERS + " inputs");
        }
        for (Map.Entry<String, String> entry : parameters.entrySet()) {
            if (entry.getKey() == null || entry.getKey().isEmpty() || entry.getKey().length() > MAX_VARIABLE
                    || entry.getValue() == null
                    || entry.getValue().length() > MAX_PARAMETER_DESCRIPTION) {
                throw new IllegalArgumentException("parameters." + entry.getKey() + " must be a text of at most "
                        + MAX_PARAMETER_DESCRIPTION + " characters");
            }
        }
        parameters = java.util.Collections.unmodifiableMap(parameters);
    }

    /** Whether {@code text} has the shape of a server's code: 32 lowercase letters and digits, nothing else. */
    public static boolean isCode(String text) {
        return text != null && text.length() == CODE_LENGTH
                && text.chars().allMatch(c -> (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'));
    }

    /** Dify's status words. */
    public String status() {
        return enabled ? "active" : "inactive";
    }

    /** The path callers are given, from the server's root. */
    public String path() {
        return "/mcp/server/" + code + "/mcp";
    }

    public AppMcpServer withEnabled(boolean on, long now) {
        return new AppMcpServer(id, appId, code, description, on, parameters, createdAt, now);
    }

    public AppMcpServer withCode(String newCode, long now) {
        return new AppMcpServer(id, appId, newCode, description, enabled, parameters, createdAt, now);
    }

    public AppMcpServer described(String newDescription, Map<String, String> newParameters, long now) {
        return new AppMcpServer(id, appId, code, newDescription, enabled, newParameters, createdAt, now);
    }
}
