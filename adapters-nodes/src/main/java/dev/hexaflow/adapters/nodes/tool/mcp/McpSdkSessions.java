package dev.hexaflow.adapters.nodes.tool.mcp;

import dev.hexaflow.adapters.nodes.net.NetworkFailures;
import dev.hexaflow.adapters.nodes.net.OutageLog;
import dev.hexaflow.adapters.nodes.net.OutboundExchange;
import dev.hexaflow.adapters.nodes.net.TraceHeaders;
import dev.hexaflow.domain.tool.McpServer;
import dev.hexaflow.domain.tool.McpToolAddress;
import dev.hexaflow.domain.tool.ToolMessage;
import dev.hexaflow.workflow.engine.StopSignal;
import dev.hexaflow.workflow.port.out.McpSessions;
import dev.hexaflow.workflow.port.out.ToolRunner.ToolException;
import io.modelcontextprotocol.client.McpAsyncClient;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.transport.HttpClientSseClientTransport;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.client.transport.customizer.McpSyncHttpClientRequestCustomizer;
import io.modelcontextprotocol.spec.McpClientTransport;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.UnknownHostException;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import reactor.core.publisher.Mono;

/**
 * The MCP servers of an agent node's own config, through the official MCP Java SDK over Streamable HTTP or the
 * older HTTP+SSE transport: the server's URL is checked against the outbound policy before anything is sent (a
 * refusal names the server), and so is every request after it; redirects are not followed. A session waits at
 * most the server's own timeout, bounded by the engine's tool timeout, and a stop ends the wait at once.
 */
public final class McpSdkSessions implements McpSessions {

    /** By the server's name and host (a URL may hold a key in its query), for every node of the process. */
    private static final OutageLog OUTAGES = new OutageLog("MCP server of an agent node");
    private final OutboundExchange outbound;
    private final Duration toolTimeout;

    /**
     * @param outbound    the policy the servers are held to
     * @param toolTimeout the longest any handshake, list or call may take, whatever a server's config asks
     */
    public McpSdkSessions(OutboundExchange outbound, Duration toolTimeout) {
        this.outbound = outbound;
        this.toolTimeout = toolTimeout;
    }

    @Override
    public Session open(Server server, StopSignal stop) {
        Duration timeout = bounded(server.timeout());
        Duration callTimeout = bounded(server.callTimeout());
        try {
            outbound.check(server.url());
        } catch (OutboundExchange.RefusedException e) {
            throw new ToolException("The MCP server " + server.name() + " is outside the outbound policy: "
                    + e.getMessage());
        } catch (UnknownHostException e) {
            throw new ToolException("The MCP server " + server.name() + " cannot be reached: its host "
                    + server.url().getHost() + " is unknown");
        }
        McpAsyncClient client = McpClient.async(transport(server, timeout))
                .clientInfo(new McpSchema.Implementation("hexaflow", "1"))
                .requestTimeout((callTimeout.compareTo(timeout) > 0 ? callTimeout : timeout).plusSeconds(1))
                .initializationTimeout(timeout.plusSeconds(1))
                .build();
        SdkSession session = new SdkSession(server, client, callTimeout);
        try {
            session.await(client.initialize(), "the handshake", stop, timeout);
            McpSchema.ListToolsResult listed = session.await(client.listTools(), "the list of tools", stop,
                    timeout);
            listed.tools().forEach(tool -> session.tools.add(new Tool(tool.name(),
                    tool.description() == null ? "" : tool.description(), schema(tool))));
        } catch (RuntimeException e) {
            session.close();
            throw e;
        }
        return session;
    }

    private Duration bounded(Duration asked) {
        return asked.compareTo(toolTimeout) < 0 ? asked : toolTimeout;
    }

    private static Map<String, Object> schema(McpSchema.Tool tool) {
        return tool.inputSchema() == null ? Map.of("type", "object", "properties", Map.of()) : tool.inputSchema();
    }

    private McpClientTransport transport(Server server, Duration timeout) {
        URI url = server.url();
        String origin = url.getScheme() + "://" + url.getRawAuthority();
        String path = (url.getRawPath() == null || url.getRawPath().isEmpty() ? "/" : url.getRawPath())
                + (url.getRawQuery() == null ? "" : "?" + url.getRawQuery());
        HttpClient.Builder http = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER)
                .connectTimeout(timeout);
        McpSyncHttpClientRequestCustomizer held = (request, method, target, body, context) -> {
            try {
                outbound.check(target);
            } catch (UnknownHostException e) {
                throw new UncheckedIOException(e);
            }
            server.headers().forEach(request::header);
            TraceHeaders.addTo(request);
        };
        if (server.sse()) {
            return HttpClientSseClientTransport.builder(origin).sseEndpoint(path).clientBuilder(http)
                    .httpRequestCustomizer(held).build();
        }
        return HttpClientStreamableHttpTransport.builder(origin).endpoint(path).clientBuilder(http)
                .httpRequestCustomizer(held).build();
    }

    /** One server's session for one run of the node. */
    private static final class SdkSession implements Session {

        private final Server server;
        private final McpAsyncClient client;
        private final Duration callTimeout;
        private final List<Tool> tools = new java.util.ArrayList<>();

        SdkSession(Server server, McpAsyncClient client, Duration callTimeout) {
            this.server = server;
            this.client = client;
            this.callTimeout = callTimeout;
        }

        @Override
        public List<Tool> tools() {
            return List.copyOf(tools);
        }

        @Override
        public List<ToolMessage> call(String tool, Map<String, Object> arguments, StopSignal stop) {
            McpSchema.CallToolResult result = await(client.callTool(new McpSchema.CallToolRequest(tool,
                    arguments)), "the call of tool " + tool, stop, callTimeout);
            // The server's name in the node's config, for the messages; the address is not registered anywhere.
            McpServer named = new McpServer(server.name(), new McpServer.StreamableHttp(server.url(), Map.of()));
            return McpToolResults.messages(new McpToolAddress(named, tool), result);
        }

        <T> T await(Mono<T> answer, String what, StopSignal stop, Duration timeout) {
            CompletableFuture<T> future = answer.toFuture();
            String target = server.name() + " (" + server.url().getHost() + ")";
            try (AutoCloseable cancel = stop.onStop(() -> future.cancel(true))) {
                T answered = future.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
                OUTAGES.answered(target);
                return answered;
            } catch (TimeoutException e) {
                future.cancel(true);
                OUTAGES.failed(target, "it did not answer " + what + " within " + timeout.toSeconds() + " s");
                throw new ToolException("The MCP server " + server.name() + " did not answer " + what + " within "
                        + timeout.toSeconds() + " s");
            } catch (CancellationException e) {
                throw new ToolException("The call to the MCP server " + server.name() + " was cancelled: the run "
                        + "was stopped");
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                future.cancel(true);
                throw new ToolException("The call to the MCP server " + server.name() + " was interrupted");
            } catch (ExecutionException e) {
                Throwable cause = e.getCause();
                if (cause instanceof McpError error && error.getJsonRpcError() != null) {
                    OUTAGES.answered(target);
                    throw new ToolException("The MCP server " + server.name() + " refused " + what + ": "
                            + error.getJsonRpcError().message());
                }
                OUTAGES.failed(target, "it cannot be reached: " + reason(cause));
                throw new ToolException("The MCP server " + server.name() + " cannot be reached: "
                        + reason(cause), cause);
            } catch (Exception e) {
                // Only closing the stop handle throws a checked Exception; it cannot fail.
                throw new IllegalStateException(e);
            }
        }

        private static String reason(Throwable failure) {
            for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
                if (cause instanceof OutboundExchange.RefusedException refused) {
                    return refused.getMessage();
                }
            }
            return failure.getMessage() == null ? NetworkFailures.reason(failure) : failure.getMessage();
        }

        @Override
        public void close() {
            client.closeGracefully().timeout(Duration.ofSeconds(2)).onErrorResume(failure -> Mono.empty())
                    .subscribe();
        }
    }
}
