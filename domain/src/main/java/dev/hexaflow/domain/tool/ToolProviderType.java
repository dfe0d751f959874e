package dev.hexaflow.domain.tool;

import java.util.Optional;

/** Where a tool of a Dify workflow comes from, by the {@code provider_type} names of Dify's DSL. */
public enum ToolProviderType {
    /** Built into Dify (time, json_process, webscraper, audio ...): run natively here where they are. */
    BUILTIN("builtin"),
    /** A Dify plugin's tool ({@code langgenius/time/time}): the same tool as its built-in namesake, else bound. */
    PLUGIN("plugin"),
    /** A custom tool described by an OpenAPI document. */
    API("api"),
    /** Another app of this server, run as a tool. */
    WORKFLOW("workflow"),
    /** A tool of a Model Context Protocol server. */
    MCP("mcp");

    private final String wireName;

    ToolProviderType(String wireName) {
        this.wireName = wireName;
    }

    public String wireName() {
        return wireName;
    }

    public static Optional<ToolProviderType> fromWireName(String name) {
        for (ToolProviderType type : values()) {
            if (type.wireName.equals(name)) {
                return Optional.of(type);
            }
        }
        return Optional.empty();
    }
}
