package dev.hexaflow.adapters.nodes.tool.mcp;

import dev.hexaflow.adapters.nodes.net.TraceHeaders;
import dev.hexaflow.adapters.nodes.net.NetworkFailures;
import dev.hexaflow.adapters.nodes.net.NetworkFailures;
import dev.hexaflow.adapters.nodes.net.OutageLog;
import dev.hexaflow.adapters.nodes.net.OutboundExchange;
import dev.hexaflow.workflow.engine.StopSignal;
import dev.hexaflow.workflow.port.out.ToolRunner;
import dev.hexaflow.domain.tool.McpServer;
import dev.hexaflow.domain.tool.McpToolAddress;
import dev.hexaflow.domain.tool.ToolDescription;
import dev.hexaflow.domain.tool.ToolMessage;
import dev.hexaflow.domain.tool.ToolRef;
import io.modelcontextprotocol.client.McpAsyncClient;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.client.transport.StdioClientTransport;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.json.schema.JsonSchemaValidator;
import io.modelcontextprotocol.spec.McpClientTransport;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.UnknownHostException;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import reactor.core.publisher.Mono;

/**
 * Tools served over the Model Context Protocol, through the official MCP Java SDK: a tool bound to a registered
 * server (or a Dify MCP tool node naming the server) is called there, its arguments first checked against the
 * input schema the server gives for it.
 *
 * <p>One connection per server, opened at the first call and kept for the next ones (an MCP session costs a
 * handshake, and a stdio server a process); a connection that broke, or whose server was registered anew with
 * another endpoint, is replaced; {@link #close()} ends them all (a stdio server's process with it). Streamable HTTP
 * requests are held to the outbound policy, each one checked before it goes out, and never follow a redirect.
 * Every exchange waits at most the time limit, and a stop ends the wait at once.
 */
public final class McpSdkToolRunner implements ToolRunner, AutoCloseable {

    private final Function<ToolRef, Optional<McpToolAddress>> addresses;
    private final OutboundExchange outbound;
    private final Duration timeout;
    /** Shared by every runner of the process, by server name (its URL may hold a key). */
    private static final OutageLog OUTAGES = new OutageLog("MCP server");
    private final Map<String, Connection> connections = new ConcurrentHashMap<>();
    /** One lock per server name, held while a connection to it opens. */
    private final Map<String, java.util.concurrent.locks.ReentrantLock> opening = new ConcurrentHashMap<>();

    /**
     * @param addresses where a tool runs over MCP, when it does (its binding, or the server a Dify MCP node names)
     * @param outbound  the policy Streamable HTTP servers are held to
     * @param timeout   how long connecting, listing the tools or one call may take
     */
    public McpSdkToolRunner(Function<ToolRef, Optional<McpToolAddress>> addresses, OutboundExchange outbound,
            Duration timeout) {
        this.addresses = addresses;
        this.outbound = outbound;
        this.timeout = timeout;
    }

    /** A session with one server, and the tools it listed. */
    private record Connection(McpServer server, McpAsyncClient client, Map<String, McpSchema.Tool> tools) {
    }

    @Override
    public Optional<ToolDescription> describe(ToolRef ref) {
        return addresses.apply(ref).map(address -> {
            try {
                McpSchema.Tool tool = tool(address, StopSignal.NEVER);
                return new ToolDescription(ref, tool.description(), tool.inputSchema());
            } catch (ToolException e) {
                // Bound but out of reach now: the call will say why; the binding still stands.
                return new ToolDescription(ref, "", null);
            }
        });
    }

    /** Bound (or named by an MCP node whose server is registered): no server is asked. */
    @Override
    public boolean runs(ToolRef ref) {
        return addresses.apply(ref).isPresent();
    }

    @Override
    public List<ToolMessage> run(ToolRef ref, Map<String, Object> arguments, StopSignal stop) {
        McpToolAddress address = addresses.apply(ref).orElseThrow(() -> new ToolException("The tool " + ref.label()
                + " is not bound to an MCP server"));
        McpSchema.Tool tool = tool(address, stop);
        Map<String, Object> given = given(arguments);
        JsonSchemaValidator.ValidationResponse check = Schemas.VALIDATOR.validate(tool.inputSchema(), given);
        if (!check.valid()) {
            throw new ToolException("The arguments do not match the input schema of the MCP tool " + tool.name()
                    + " of server " + address.server().name() + ": " + check.errorMessage());
        }
        Connection connection = connection(address.server(), stop);
        McpSchema.CallToolResult result = await(connection,
                connection.client().callTool(new McpSchema.CallToolRequest(tool.name(), given)),
                "the call of tool " + tool.name(), stop);
        return McpToolResults.messages(address, result);
    }

    /** Dify leaves out arguments that are null or blank text, as if not given. */
    private static Map<String, Object> given(Map<String, Object> arguments) {
        Map<String, Object> given = new LinkedHashMap<>();
        arguments.forEach((name, value) -> {
            if (value != null && !(value instanceof String text && text.isBlank())) {
                given.put(name, value);
            }
        });
        return given;
    }

    private McpSchema.Tool tool(McpToolAddress address, StopSignal stop) {
        Connection connection = connection(address.server(), stop);
        McpSchema.Tool tool = connection.tools().get(address.tool());
        if (tool == null) {
            // The server may have gained the tool since it was listed.
            list(connection, stop);
            tool = connection.tools().get(address.tool());
        }
        if (tool == null) {
            throw new ToolException("The MCP server " + address.server().name() + " has no tool named '"
                    + address.tool() + "'; it has: " + String.join(", ", connection.tools().keySet()));
        }
        return tool;
    }

    /**
     * The server's open connection, or a new one. Connections to one server are opened one at a time (by a lock of
     * that server's: a server that does not answer holds up no other), and a caller waits for the lock at most the
     * timeout and never past a stop.
     */
    private Connection connection(McpServer server, StopSignal stop) {
        Connection open = connections.get(server.name());
        if (open != null && open.server().equals(server)) {
            return open;
        }
        java.util.concurrent.locks.ReentrantLock lock = opening.computeIfAbsent(server.name(),
                name -> new java.util.concurrent.locks.ReentrantLock());
        long deadline = System.nanoTime() + timeout.toNanos();
        try {
            while (!lock.tryLock(100, java.util.concurrent.TimeUnit.MILLISECONDS)) {
                if (stop.isStopped()) {
                    throw new ToolException("stopped");
                }
                if (System.nanoTime() > deadline) {
                    throw new ToolException("The MCP server " + server.name() + " did not answer the handshake "
                            + "within " + timeout.toSeconds() + " s");
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ToolException("stopped");
        }
        try {
            open = connections.get(server.name());
            if (open != null && open.server().equals(server)) {
                return open;
            }
            if (open != null) {
                connections.remove(server.name());
                end(open);
            }
            McpAsyncClient client = McpClient.async(transport(server))
                    .clientInfo(new McpSchema.Implementation("hexaflow", "1"))
                    .requestTimeout(timeout.plusSeconds(1))
                    .initializationTimeout(timeout.plusSeconds(1))
                    .build();
            Connection connection = new Connection(server, client, new ConcurrentHashMap<>());
            try {
                await(connection, client.initialize(), "the handshake", stop);
                list(connection, stop);
            } catch (RuntimeException e) {
                end(connection);
                throw e;
            }
            connections.put(server.name(), connection);
            return connection;
        } finally {
            lock.unlock();
        }
    }

    private void list(Connection connection, StopSignal stop) {
        McpSchema.ListToolsResult listed = await(connection, connection.client().listTools(), "the list of tools",
                stop);
        listed.tools().forEach(tool -> connection.tools().put(tool.name(), tool));
    }

    private McpClientTransport transport(McpServer server) {
        if (server.endpoint() instanceof McpServer.StreamableHttp http) {
            URI url = http.url();
            String origin = url.getScheme() + "://" + url.getRawAuthority();
            String path = (url.getRawPath() == null || url.getRawPath().isEmpty() ? "/" : url.getRawPath())
                    + (url.getRawQuery() == null ? "" : "?" + url.getRawQuery());
            return HttpClientStreamableHttpTransport.builder(origin)
                    .endpoint(path)
                    .clientBuilder(HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER)
                            .connectTimeout(timeout))
                    .httpRequestCustomizer((request, method, target, body, context) -> {
                        try {
                            outbound.check(target);
                        } catch (UnknownHostException e) {
                            throw new UncheckedIOException(e);
                        }
                        http.headers().forEach(request::header);
                        // Where the SDK builds the request on the caller's thread, the tool node's span is current.
                        TraceHeaders.addTo(request);
                    })
                    .build();
        }
        McpServer.Stdio stdio = (McpServer.Stdio) server.endpoint();
        List<String> command = stdio.command();
        ServerParameters parameters = ServerParameters.builder(command.get(0))
                .args(command.subList(1, command.size()))
                .env(stdio.env())
                .build();
        return new StdioClientTransport(parameters, McpJsonDefaults.getMapper());
    }

    /**
     * Waits for the server's answer within the time limit, or until the run stops. A failure of the connection
     * itself (not the server's own error answer) drops it, so the next call connects afresh.
     */
    private <T> T await(Connection connection, Mono<T> answer, String what, StopSignal stop) {
        String server = connection.server().name();
        CompletableFuture<T> future = answer.toFuture();
        try (AutoCloseable cancel = stop.onStop(() -> future.cancel(true))) {
            T answered = future.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            OUTAGES.answered(server);
            return answered;
        } catch (TimeoutException e) {
            future.cancel(true);
            OUTAGES.failed(server, "it did not answer " + what + " within " + timeout.toSeconds() + " s");
            throw new ToolException("The MCP server " + server + " did not answer " + what + " within "
                    + timeout.toSeconds() + "s");
        } catch (CancellationException e) {
            throw new ToolException("The call to the MCP server " + server + " was cancelled: the run was stopped");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            future.cancel(true);
            throw new ToolException("The call to the MCP server " + server + " was interrupted");
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof McpError error && error.getJsonRpcError() != null) {
                OUTAGES.answered(server); // an error of its own is an answer: the server is up
                throw new ToolException("The MCP server " + server + " refused " + what + ": "
                        + error.getJsonRpcError().message());
            }
            drop(connection);
            OUTAGES.failed(server, "it cannot be reached: " + reason(cause));
            throw new ToolException("The MCP server " + server + " cannot be reached: " + reason(cause), cause);
        } catch (Exception e) {
            // Only closing the stop handle throws a checked Exception; it cannot fail.
            throw new IllegalStateException(e);
        }
    }

    private static String reason(Throwable failure) {
        List<String> reasons = new ArrayList<>();
        for (Throwable cause = failure; cause != null && reasons.size() < 4; cause = cause.getCause()) {
            if (cause instanceof OutboundExchange.RefusedException refused) {
                return refused.getMessage();
            }
            String message = cause.getMessage() == null ? NetworkFailures.reason(cause) : cause.getMessage();
            if (!reasons.contains(message)) {
                reasons.add(message);
            }
        }
        return String.join(": ", reasons);
    }

    private void drop(Connection connection) {
        if (connections.remove(connection.server().name(), connection)) {
            end(connection);
        }
    }

    private static void end(Connection connection) {
        // The stdio transport ends the server's process when its session closes.
        connection.client().closeGracefully().timeout(Duration.ofSeconds(2))
                .onErrorResume(failure -> Mono.empty())
                .subscribe();
    }

    /** Ends every connection: the sessions, and the processes of stdio servers. */
    @Override
    public void close() {
        List<Connection> open = new ArrayList<>(connections.values());
        connections.clear();
        for (Connection connection : open) {
            try {
                connection.client().closeGracefully().block(Duration.ofSeconds(2));
            } catch (RuntimeException e) {
                connection.client().close();
            }
        }
    }

    /**
     * The SDK's schema validator, made at the first call: it brings Jackson 3 and a JSON-schema library, some 800
     * classes that a server's start would otherwise load for a tool it may never call.
     */
    private static final class Schemas {
        static final JsonSchemaValidator VALIDATOR = McpJsonDefaults.getSchemaValidator();
    }
}
