package dev.hexaflow.app;

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
            + "PROVIDER TOOL --mcp SERVER MCP_TOOL | tools unbind PROVIDER TOOL";

    private ToolsCommandLine() {
    }

    static CommandLine.Command parse(List<String> words, List<String[]> flags, Configuration config) {
        String verb = words.size() > 1 ? words.get(1) : "";
        try {
            switch (verb) {
                case "list" -> {
                    expect(words, 2, flags, List.of());
                    return new CommandLine.Command.ListTools(config);
                }
                case "server" -> {
                    return server(words, flags, config);
                }
                case "remove-server" -> {
                    expect(words, 3, flags, List.of());
                    return new CommandLine.Command.RemoveMcpServer(config, words.get(2));
                }
                case "bind" -> {
                    expect(words, 5, flags, List.of("--mcp"));
                    List<String> mcp = values(flags, "--mcp");
                    if (mcp.size() != 1) {
                        throw new UsageException("bind takes the MCP server and its tool: --mcp SERVER MCP_TOOL");
                    }
                    return new CommandLine.Command.BindTool(config, new ToolBinding(words.get(2), words.get(3),
                            new ToolBinding.McpTool(mcp.get(0), words.get(4))));
                }
                case "unbind" -> {
                    expect(words, 4, flags, List.of());
                    return new CommandLine.Command.UnbindTool(config, words.get(2), words.get(3));
                }
                default -> throw new UsageException("unknown tools command '" + String.join(" ", words) + "'; "
                        + USAGE);
            }
        } catch (IllegalArgumentException e) {
            throw new UsageException(String.join(" ", words.subList(0, Math.min(2, words.size()))) + ": "
                    + e.getMessage());
        }
    }

    private static CommandLine.Command server(List<String> words, List<String[]> flags, Configuration config) {
        List<String> command = values(flags, "--command");
        if (command.isEmpty()) {
            expect(words, 4, flags, List.of("--header"));
            URI url;
            try {
                url = new URI(words.get(3));
            } catch (URISyntaxException e) {
                throw new UsageException("tools server: " + words.get(3) + " is not a URL");
            }
            return new CommandLine.Command.RegisterMcpServer(config, new McpServer(words.get(2),
                    new McpServer.StreamableHttp(url, pairs(values(flags, "--header"), "--header"))));
        }
        expect(words, 3, flags, List.of("--command", "--env"));
        if (command.size() != 1) {
            throw new UsageException("tools server takes one --command");
        }
        return new CommandLine.Command.RegisterMcpServer(config, new McpServer(words.get(2), new McpServer.Stdio(
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
