package dev.hexaflow.adapters.http.server;

import java.util.regex.Pattern;

/**
 * A request's path as a log line may show it: on one line, at most {@value #LONGEST_PATH} characters, and without
 * the credential some paths hold (a webhook trigger's code, a paused run's form token, an MCP server's code). A
 * query never reaches here: the callers log the path alone.
 */
final class LoggedPaths {

    static final int LONGEST_PATH = 300;

    /** Paths whose last segment is the credential, with or without a slash after it. */
    private static final Pattern SECRET_TAIL = Pattern.compile(
            "^(/triggers/webhook/|/form/|/api/form/human_input/|/v1/form/human_input/)[^/]+/?$");

    /** An app's MCP server: its code is the segment before {@code /mcp}. */
    private static final Pattern MCP_SERVER = Pattern.compile("^/mcp/server/[^/]+(/|$)");

    private LoggedPaths() {
    }

    static String of(String path) {
        String clean = path == null ? "" : path.replaceAll("\\p{Cntrl}", "?");
        clean = SECRET_TAIL.matcher(clean).replaceFirst("$1…");
        clean = MCP_SERVER.matcher(clean).replaceFirst("/mcp/server/…$1");
        return clean.length() <= LONGEST_PATH ? clean : clean.substring(0, LONGEST_PATH) + "...";
    }
}
