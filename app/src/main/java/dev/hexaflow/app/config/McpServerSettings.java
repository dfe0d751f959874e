package dev.hexaflow.app.config;

import dev.hexaflow.app.cli.UsageException;
import java.time.Duration;
import java.util.Map;

/**
 * What a call of an app published as an MCP server takes: the largest request it reads
 * (HEXAFLOW_MCP_SERVER_MAX_BODY_KB), how many requests the MCP servers answer at once, all apps together
 * (HEXAFLOW_MCP_SERVER_MAX_CALLS; past them, 429), and the longest a tool call waits for its run's end
 * (HEXAFLOW_MCP_SERVER_CALL_WAIT_SECONDS; the run goes on past it, kept, and the call answers an error result).
 */
public record McpServerSettings(long maxBodyBytes, int maxCalls, Duration callWait) {

    public static final McpServerSettings DEFAULTS = new McpServerSettings(1024L * 1024, 64,
            Duration.ofSeconds(300));

    public McpServerSettings {
        if (maxBodyBytes < 1024 || maxBodyBytes > TriggerSettings.MOST_BODY_KB * 1024) {
            throw new UsageException("HEXAFLOW_MCP_SERVER_MAX_BODY_KB must be between 1 and "
                    + TriggerSettings.MOST_BODY_KB + " (the largest body the server reads), was "
                    + maxBodyBytes / 1024);
        }
        if (maxCalls < 1) {
            throw new UsageException("HEXAFLOW_MCP_SERVER_MAX_CALLS must be at least 1, was " + maxCalls);
        }
        if (callWait.isNegative() || callWait.isZero()) {
            throw new UsageException("HEXAFLOW_MCP_SERVER_CALL_WAIT_SECONDS must be at least 1");
        }
    }

    public static McpServerSettings fromEnvironment(Map<String, String> env) {
        return new McpServerSettings(1024L * number(env, "HEXAFLOW_MCP_SERVER_MAX_BODY_KB", 1024),
                number(env, "HEXAFLOW_MCP_SERVER_MAX_CALLS", 64),
                Duration.ofSeconds(number(env, "HEXAFLOW_MCP_SERVER_CALL_WAIT_SECONDS", 300)));
    }

    private static int number(Map<String, String> env, String name, int otherwise) {
        String text = env.get(name);
        if (text == null || text.isBlank()) {
            return otherwise;
        }
        try {
            return Integer.parseInt(text.strip());
        } catch (NumberFormatException e) {
            throw new UsageException(name + " must be a whole number, was '" + text + "'");
        }
    }
}
