package dev.hexaflow.app.cli;

import dev.hexaflow.app.config.Configuration;
import dev.hexaflow.domain.tool.ApiCredential;
import dev.hexaflow.domain.tool.McpServer;
import dev.hexaflow.domain.tool.ToolBinding;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Reads {@code hexaflow tools ...}: its words and its --header, --env, --command and --mcp flags. */
final class ToolsCommandLine {

    private static final String USAGE = "try: tools list | tools server NAME URL [--header NAME=VALUE]... | tools "
            + "server NAME --command \"PROGRAM ARG...\" [--env NAME=VALUE]... | tools remove-server NAME | tools bind "
            + "PROVIDER TOOL --mcp SERVER MCP_TOOL | tools bind PROVIDER TOOL --openapi DOCUMENT OPERATION_ID "
            + "[--api-key KEY [--api-key-header NAME] [--api-key-prefix bearer|basic|custom] | --api-key KEY "
            + "--api-key-query PARAM] | tools "
            + "bind PROVIDER TOOL --app APP_ID | tools unbind PROVIDER TOOL";

    private ToolsCommandLine() {
    }

    static Command parse(List<String> words, List<String[]> flags, Configuration config) {
        String verb = words.size() > 1 ? words.get(1) : "";
        try {
            switch (verb) {
                case "list" -> {
                    expect(words, 2, flags, List.of());
                    return new Command.ListTools(config);
                }
                case "server" -> {
                    return server(words, flags, config);
                }
                case "remove-server" -> {
                    expect(words, 3, flags, List.of());
                    return new Command.RemoveMcpServer(config, words.get(2));
                }
                case "bind" -> {
                    return bind(words, flags, config);
                }
                case "unbind" -> {
                    expect(words, 4, flags, List.of());
                    return new Command.UnbindTool(config, words.get(2), words.get(3));
                }
                default -> throw new UsageException("unknown tools command '" + String.join(" ", words) + "'; "
                        + USAGE);
            }
        } catch (IllegalArgumentException e) {
            throw new UsageException(String.join(" ", words.subList(0, Math.min(2, words.size()))) + ": "
                    + e.getMessage());
        }
    }

    /** {@code bind PROVIDER TOOL} and one of {@code --mcp SERVER MCP_TOOL}, {@code --openapi DOCUMENT OPERATION_ID}, {@code --app APP_ID}. */
    private static Command bind(List<String> words, List<String[]> flags, Configuration config) {
        List<String> mcp = values(flags, "--mcp");
        List<String> openApi = values(flags, "--openapi");
        List<String> app = values(flags, "--app");
        if (mcp.size() + openApi.size() + app.size() != 1) {
            throw new UsageException("bind takes one of --mcp SERVER MCP_TOOL, --openapi DOCUMENT OPERATION_ID, "
                    + "--app APP_ID");
        }
        ToolBinding.Target target;
        if (!app.isEmpty()) {
            expect(words, 4, flags, List.of("--app"));
            target = new ToolBinding.App(app.get(0));
        } else if (!openApi.isEmpty()) {
            expect(words, 5, flags, List.of("--openapi", "--api-key", "--api-key-header", "--api-key-prefix",
                    "--api-key-query"));
            target = new ToolBinding.OpenApiOperation(document(openApi.get(0)), words.get(4), credential(flags));
        } else {
            expect(words, 5, flags, List.of("--mcp"));
            target = new ToolBinding.McpTool(mcp.get(0), words.get(4));
        }
        return new Command.BindTool(config, new ToolBinding(words.get(2), words.get(3), target));
    }

    /**
     * The api tool's key from {@code --api-key}, in a header ({@code --api-key-header}, Authorization by default,
     * after {@code --api-key-prefix}) or in the query ({@code --api-key-query PARAM}); none without it.
     */
    private static ApiCredential credential(List<String[]> flags) {
        String key = single(flags, "--api-key");
        String header = single(flags, "--api-key-header");
        String prefix = single(flags, "--api-key-prefix");
        String query = single(flags, "--api-key-query");
        if (key == null) {
            if (header != null || prefix != null || query != null) {
                throw new UsageException("--api-key-header, --api-key-prefix and --api-key-query go with --api-key");
            }
            return new ApiCredential.None();
        }
        if (query != null && (header != null || prefix != null)) {
            throw new UsageException("--api-key-query puts the key in the query; it does not go with "
                    + "--api-key-header or --api-key-prefix");
        }
        return query != null ? ApiCredential.of("api_key_query", null, null, query, key)
                : ApiCredential.of("api_key_header", header, prefix, null, key);
    }

    private static String single(List<String[]> flags, String name) {
        List<String> given = values(flags, name);
        if (given.size() > 1) {
            throw new UsageException(name + " is given more than once");
        }
        return given.isEmpty() ? null : given.get(0);
    }

    /** An http(s) URL as it is; else a file, whose text is kept, so that the binding does not depend on the file. */
    private static String document(String given) {
        if (given.startsWith("http://") || given.startsWith("https://")) {
            return given;
        }
        try {
            return java.nio.file.Files.readString(java.nio.file.Path.of(given));
        } catch (java.io.IOException | java.nio.file.InvalidPathException e) {
            throw new UsageException("--openapi takes an http(s) URL or a file; cannot read " + given + ": "
                    + e.getMessage());
        }
    }

    private static Command server(List<String> words, List<String[]> flags, Configuration config) {
        List<String> command = values(flags, "--command");
        if (command.isEmpty()) {
            expect(words, 4, flags, List.of("--header"));
            URI url;
            try {
                url = new URI(words.get(3));
            } catch (URISyntaxException e) {
                throw new UsageException("tools server: " + words.get(3) + " is not a URL");
            }
            return new Command.RegisterMcpServer(config, new McpServer(words.get(2),
                    new McpServer.StreamableHttp(url, pairs(values(flags, "--header"), "--header"))));
        }
        expect(words, 3, flags, List.of("--command", "--env"));
        if (command.size() != 1) {
            throw new UsageException("tools server takes one --command");
        }
        return new Command.RegisterMcpServer(config, new McpServer(words.get(2), new McpServer.Stdio(
                new ArrayList<>(Arrays.asList(command.get(0).strip().split("\\s+"))),
                pairs(values(flags, "--env"), "--env"))));
    }

    private static void expect(List<String> words, int count, List<String[]> flags, List<String> allowed) {
        if (words.size() != count) {
            throw new UsageException("'" + String.join(" ", words) + "' is not a tools command; " + USAGE);
        }
        for (String[] flag : flags) {
            if (!allowed.contains(flag[0])) {
                throw new UsageException(flag[0] + " does not go with tools " + words.get(1));
            }
        }
    }

    private static List<String> values(List<String[]> flags, String name) {
        return flags.stream().filter(flag -> flag[0].equals(name)).map(flag -> flag[1]).toList();
    }

    private static Map<String, String> pairs(List<String> values, String flag) {
        Map<String, String> pairs = new LinkedHashMap<>();
        for (String value : values) {
            int equals = value.indexOf('=');
            if (equals <= 0) {
                throw new UsageException(flag + " takes NAME=VALUE, not '" + value + "'");
            }
            pairs.put(value.substring(0, equals).strip(), value.substring(equals + 1));
        }
        return pairs;
    }
}
