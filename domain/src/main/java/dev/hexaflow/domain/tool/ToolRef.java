package dev.hexaflow.domain.tool;

/**
 * A tool as a workflow names it: where it comes from, its provider and its name. A provider written the plugin
 * way by Dify's own organisation ({@code langgenius/time/time}) and the old way ({@code time}) are the same
 * provider; any other plugin keeps its full id ({@code junjiem/db_query/db_query}).
 */
public record ToolRef(ToolProviderType type, String provider, String tool) {

    private static final String DIFY_PLUGINS = "langgenius/";

    public ToolRef {
        if (type == null) {
            throw new IllegalArgumentException("type must not be null");
        }
        if (provider == null || provider.isBlank()) {
            throw new IllegalArgumentException("provider must not be blank");
        }
        if (tool == null || tool.isBlank()) {
            throw new IllegalArgumentException("tool must not be blank");
        }
        provider = normal(provider.strip());
        tool = tool.strip();
    }

    private static String normal(String provider) {
        if (provider.startsWith(DIFY_PLUGINS)) {
            String[] parts = provider.split("/");
            return parts[parts.length - 1];
        }
        return provider;
    }

    /** {@code provider/tool}, as the README, the warnings and the binding commands write a tool. */
    public String label() {
        return provider + "/" + tool;
    }
}
