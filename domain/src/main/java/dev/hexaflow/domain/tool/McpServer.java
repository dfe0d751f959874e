package dev.hexaflow.domain.tool;

import java.net.URI;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * A Model Context Protocol server an operator registered under a name: reached over Streamable HTTP at a URL with
 * the headers it asks for (a key, typically), or started as a local process speaking over its standard streams.
 * Header and environment values are secrets: they go to the server and are never shown back.
 */
public record McpServer(String name, Endpoint endpoint) {

    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_.-]{0,63}");
    /** Bounds that keep a registration to the size of a configuration, not of a payload. */
    private static final int MAX_URL = 8000;
    private static final int MAX_ENTRIES = 64;
    private static final int MAX_TEXT = 8192;

    public McpServer {
        if (name == null || !NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("name must be 1 to 64 letters, digits, '_', '.' or '-', starting with"
                    + " a letter or digit");
        }
        if (endpoint == null) {
            throw new IllegalArgumentException("endpoint must not be null");
        }
    }

    /** How the server is reached. */
    public sealed interface Endpoint {
    }

    /** Streamable HTTP: the server's MCP endpoint and the headers sent with every request to it. */
    public record StreamableHttp(URI url, Map<String, String> headers) implements Endpoint {
        public StreamableHttp {
            if (url == null || url.getHost() == null || url.getScheme() == null
                    || !List.of("http", "https").contains(url.getScheme().toLowerCase(Locale.ROOT))) {
                throw new IllegalArgumentException("url must be an http or https URL with a host");
            }
            if (url.toString().length() > MAX_URL) {
                throw new IllegalArgumentException("url must be at most " + MAX_URL + " characters");
            }
            headers = Map.copyOf(headers == null ? Map.of() : headers);
            bounded("headers", headers);
            headers.forEach((header, value) -> {
                if (header.isBlank() || !header.chars().allMatch(c -> c > 32 && c < 127 && c != ':')) {
                    throw new IllegalArgumentException("headers: '" + header + "' is not a header name");
                }
                if (value.contains("\r") || value.contains("\n")) {
                    throw new IllegalArgumentException("headers: the value of " + header + " must be one line");
                }
            });
        }
    }

    /** Stdio: the command (program and arguments) this server starts, with the environment it adds. */
    public record Stdio(List<String> command, Map<String, String> env) implements Endpoint {
        public Stdio {
            command = List.copyOf(command == null ? List.of() : command);
            if (command.isEmpty() || command.get(0).isBlank()) {
                throw new IllegalArgumentException("command must name a program");
            }
            if (command.size() > MAX_ENTRIES * 4 || command.stream().anyMatch(part -> part.length() > MAX_TEXT)) {
                throw new IllegalArgumentException("command must be at most " + MAX_ENTRIES * 4 + " parts of at most "
                        + MAX_TEXT + " characters");
            }
            env = Map.copyOf(env == null ? Map.of() : env);
            bounded("env", env);
            env.keySet().forEach(variable -> {
                if (variable.isBlank() || variable.contains("=") || variable.contains("\0")) {
                    throw new IllegalArgumentException("env: '" + variable + "' is not a variable name");
                }
            });
        }
    }

    private static void bounded(String field, Map<String, String> entries) {
        if (entries.size() > MAX_ENTRIES) {
            throw new IllegalArgumentException(field + " must have at most " + MAX_ENTRIES + " entries");
        }
        entries.forEach((name, value) -> {
            if (name.length() > 256 || value.length() > MAX_TEXT) {
                throw new IllegalArgumentException(field + ": names must be at most 256 characters, values at most "
                        + MAX_TEXT);
            }
        });
    }
}
