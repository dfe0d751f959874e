package dev.hexaflow.workflow.nodes;

import dev.hexaflow.domain.workflow.DataTree;
import dev.hexaflow.domain.workflow.InvalidNodeDataException;
import dev.hexaflow.domain.workflow.JsonText;
import dev.hexaflow.domain.workflow.Values;
import dev.hexaflow.domain.workflow.VariablePool;
import dev.hexaflow.workflow.engine.NodeFailure;
import dev.hexaflow.workflow.port.out.McpSessions.Server;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The MCP servers an MCP agent strategy reads from its parameter: {@code mcp_server} of {@code hjlarry/agent} (one
 * URL, or the JSON below) or {@code mcp_servers_config} of {@code junjiem/mcp_see_agent}: a JSON object of servers
 * by name ({@code mcpServers} around it allowed), each {@code {url, headers, timeout, sse_read_timeout,
 * transport}}, {@code transport} (or {@code type}) {@code sse} (the default, as in both plugins) or
 * {@code streamable_http}. The handshake and the list of tools wait {@code timeout} seconds, a call as long (over
 * SSE {@code sse_read_timeout}, as the answer comes on the stream), by default as each plugin: {@link Waits}. A config without references is read at import, so
 * that a fault is named there; one with references is read when the run reaches the node.
 */
record AgentMcpServers(String field, NodeArgument config, Waits waits) {

    /** The seconds a handshake (and the list of tools) and a call may take when a server's config says nothing. */
    record Waits(double timeout, double sseReadTimeout) {
        /** hjlarry's plugin: the MCP Python SDK's sse_client defaults. */
        static final Waits HJLARRY = new Waits(5, 300);
        /** junjiem's plugin. */
        static final Waits JUNJIEM = new Waits(50, 50);
    }

    /** The most servers one node may name; junjiem's plugin connects to them ten at a time. */
    static final int MOST_SERVERS = 10;
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_.-]{0,63}");
    private static final Set<String> SSE = Set.of("sse");
    private static final Set<String> STREAMABLE = Set.of("streamable_http", "streamable-http", "streamablehttp",
            "http");

    /** The parameter among {@code keys} the node gives; a constant one is checked now. */
    static AgentMcpServers read(DataTree parameters, List<String> keys, Waits waits) {
        for (String key : keys) {
            if (parameters.has(key)) {
                String field = "agent_parameters." + key + ".value";
                NodeArgument config = AgentSettings.param(parameters, key);
                if (config instanceof NodeArgument.Template template
                        && VariablePool.references(template.text()).isEmpty()) {
                    parse(field, template.text(), waits);
                } else if (config instanceof NodeArgument.Value value) {
                    parse(field, Values.text(value.value()), waits);
                }
                return new AgentMcpServers(field, config, waits);
            }
        }
        return new AgentMcpServers("agent_parameters." + keys.get(0) + ".value", NodeArgument.given(""), waits);
    }

    /** The servers as the run sees them, references rendered; a fault fails the node, naming the field. */
    List<Server> resolve(VariablePool pool) {
        Object given = config.resolve(pool);
        try {
            return parse(field, given instanceof Map<?, ?> ? Values.json(given) : Values.text(given), waits);
        } catch (InvalidNodeDataException e) {
            throw new NodeFailure("AgentNodeError", "Failed to read the MCP servers config: " + e.getMessage(), e);
        }
    }

    static List<Server> parse(String field, String text, Waits waits) {
        String config = text == null ? "" : text.strip();
        if (config.isEmpty()) {
            return List.of();
        }
        if (!config.startsWith("{")) {
            // hjlarry's plugin also takes one SSE server's URL alone.
            return List.of(server(field, "mcp_server", Map.of("url", config), waits));
        }
        Object parsed;
        try {
            parsed = JsonText.parse(config);
        } catch (IllegalArgumentException e) {
            throw new InvalidNodeDataException(field, "must be a URL or a JSON object of MCP servers: "
                    + e.getMessage());
        }
        if (!(parsed instanceof Map<?, ?> object)) {
            throw new InvalidNodeDataException(field, "must be a URL or a JSON object of MCP servers by name");
        }
        Map<?, ?> servers = object;
        if (servers.get("mcpServers") instanceof Map<?, ?> inner) {
            servers = inner;
        }
        if (servers.size() > MOST_SERVERS) {
            throw new InvalidNodeDataException(field, "names " + servers.size() + " MCP servers; at most "
                    + MOST_SERVERS + " are allowed");
        }
        List<Server> read = new ArrayList<>();
        for (Map.Entry<?, ?> entry : servers.entrySet()) {
            String name = String.valueOf(entry.getKey());
            if (!(entry.getValue() instanceof Map<?, ?> settings)) {
                throw new InvalidNodeDataException(field, "the MCP server " + name + " must be a JSON object");
            }
            read.add(server(field, name, settings, waits));
        }
        return read;
    }

    private static Server server(String field, String name, Map<?, ?> settings, Waits waits) {
        if (!NAME.matcher(name).matches()) {
            throw new InvalidNodeDataException(field, "'" + name + "' is not an MCP server name (1 to 64 letters, "
                    + "digits, '_', '.' or '-')");
        }
        if (!(settings.get("url") instanceof String url) || url.isBlank()) {
            throw new InvalidNodeDataException(field, "the MCP server " + name + " names no url (Hexaflow runs "
                    + "MCP servers over HTTP: sse or streamable_http)");
        }
        URI uri;
        try {
            uri = URI.create(url.strip());
        } catch (IllegalArgumentException e) {
            throw new InvalidNodeDataException(field, "the url of MCP server " + name + " is not a URL");
        }
        if (uri.getHost() == null || uri.getScheme() == null
                || !Set.of("http", "https").contains(uri.getScheme().toLowerCase(Locale.ROOT))) {
            throw new InvalidNodeDataException(field, "the url of MCP server " + name + " must be an http or "
                    + "https URL with a host");
        }
        Object transport = settings.containsKey("transport") ? settings.get("transport") : settings.get("type");
        String kind = transport == null ? "sse" : String.valueOf(transport).toLowerCase(Locale.ROOT);
        if (!SSE.contains(kind) && !STREAMABLE.contains(kind)) {
            throw new InvalidNodeDataException(field, "the transport '" + transport + "' of MCP server " + name
                    + " is not sse or streamable_http");
        }
        boolean sse = SSE.contains(kind);
        double timeout = seconds(field, name, settings, "timeout", waits.timeout());
        double read = sse ? seconds(field, name, settings, "sse_read_timeout", waits.sseReadTimeout()) : timeout;
        return new Server(name, uri, headers(field, name, settings.get("headers")), sse,
                Duration.ofMillis((long) (timeout * 1000)), Duration.ofMillis((long) (read * 1000)));
    }

    private static double seconds(String field, String name, Map<?, ?> settings, String key, double otherwise) {
        Object given = settings.get(key);
        if (given == null) {
            return otherwise;
        }
        if (!(given instanceof Number number) || number.doubleValue() <= 0) {
            throw new InvalidNodeDataException(field, "the " + key + " of MCP server " + name + " must be a "
                    + "number of seconds above 0");
        }
        return number.doubleValue();
    }

    private static Map<String, String> headers(String field, String name, Object given) {
        Map<String, String> headers = new LinkedHashMap<>();
        if (given == null) {
            return headers;
        }
        if (!(given instanceof Map<?, ?> map)) {
            throw new InvalidNodeDataException(field, "the headers of MCP server " + name + " must be an object");
        }
        map.forEach((header, value) -> {
            String text = String.valueOf(header);
            if (text.isBlank() || !text.chars().allMatch(c -> c > 32 && c < 127 && c != ':')
                    || !(value instanceof String line) || line.contains("\n") || line.contains("\r")) {
                throw new InvalidNodeDataException(field, "the headers of MCP server " + name + " must be header "
                        + "names with one-line text values");
            }
            headers.put(text, line);
        });
        return headers;
    }
}
