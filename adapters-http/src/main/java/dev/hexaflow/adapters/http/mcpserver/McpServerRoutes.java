package dev.hexaflow.adapters.http.mcpserver;

import dev.hexaflow.adapters.http.server.RouteGroup;
import dev.hexaflow.adapters.http.support.ResponseBodies;
import dev.hexaflow.application.common.ApiError;
import dev.hexaflow.application.common.ApiException;
import dev.hexaflow.application.mcpserver.port.in.ServeMcpServerUseCase;
import dev.hexaflow.application.mcpserver.port.in.ServeMcpServerUseCase.McpAppTool;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.server.McpStatelessServerHandler;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Semaphore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An app's MCP server door, Dify's {@code /mcp/server/{server_code}/mcp}: Streamable HTTP without sessions (each
 * POST answered with one JSON body, as Dify answers), the URL's code the only credential. An unknown code, or a
 * server that is off, is answered 404 with Dify's JSON-RPC error before the body is read; a body past the limit
 * 413; past the calls the door answers at once, 429. GET (a stream of the server's own messages) is 405: this server
 * sends none, and the SDK's client goes on without it.
 */
public final class McpServerRoutes implements RouteGroup {

    private static final Logger LOG = LoggerFactory.getLogger(McpServerRoutes.class);

    private final ServeMcpServerUseCase serve;
    private final AppToolServers servers;
    private final long maxBodyBytes;
    private final Semaphore calls;
    private final Duration longest;

    /**
     * @param maxCalls the requests answered at once, all apps together
     * @param callWait the longest a call waits for its run (the SDK is given a little more)
     */
    public McpServerRoutes(ServeMcpServerUseCase serve, String version, long maxBodyBytes, int maxCalls,
            Duration callWait) {
        this.serve = serve;
        this.longest = callWait.plusSeconds(30);
        this.servers = new AppToolServers(serve, version, longest);
        this.maxBodyBytes = maxBodyBytes;
        this.calls = new Semaphore(maxCalls);
    }

    @Override
    public void addTo(RoutesConfig routes) {
        String path = "/mcp/server/{server_code}/mcp";
        routes.post(path, this::post);
        routes.get(path, this::notHere);
        routes.delete(path, this::notHere);
    }

    private void post(Context ctx) {
        ctx.header("Cache-Control", "no-store");
        McpAppTool tool = tool(ctx);
        if (tool == null) {
            return;
        }
        if (!calls.tryAcquire()) {
            ctx.header("Retry-After", "1");
            error(ctx, 429, McpSchema.ErrorCodes.INTERNAL_ERROR, "Too many MCP calls at once; try again shortly.");
            return;
        }
        try {
            String body = body(ctx);
            if (body != null) {
                answer(ctx, servers.of(ctx.pathParam("server_code"), tool), body);
            }
        } finally {
            calls.release();
        }
    }

    private void answer(Context ctx, McpStatelessServerHandler handler, String body) {
        McpSchema.JSONRPCMessage message;
        try {
            message = McpSchema.deserializeJsonRpcMessage(Json.MAPPER, body);
        } catch (IOException | RuntimeException e) {
            error(ctx, 400, McpSchema.ErrorCodes.PARSE_ERROR, "Invalid MCP request: the body is not a JSON-RPC "
                    + "message.");
            return;
        }
        try {
            if (message instanceof McpSchema.JSONRPCRequest request) {
                McpSchema.JSONRPCResponse response = handler.handleRequest(AppToolServers.context(), request)
                        .block(longest);
                write(ctx, 200, response);
            } else if (message instanceof McpSchema.JSONRPCNotification notification) {
                handler.handleNotification(AppToolServers.context(), notification).block(longest);
                ctx.status(202);
            } else {
                ctx.status(202); // a client's answer to a request this server never sends
            }
        } catch (RuntimeException e) {
            // The SDK answers a request's own failures as JSON-RPC errors; this is what it could not answer.
            LOG.warn("MCP server request failed in the SDK's handler: {}", e.toString());
            error(ctx, 503, McpSchema.ErrorCodes.INTERNAL_ERROR, "The server cannot answer now; try again later.");
        }
    }

    /** GET and DELETE: 404 for a URL that serves nothing, else 405 (no stream, no session to end). */
    private void notHere(Context ctx) {
        if (tool(ctx) != null) {
            ctx.header("Allow", "POST");
            error(ctx, 405, McpSchema.ErrorCodes.INVALID_REQUEST, "Method Not Allowed: this server answers POST.");
        }
    }

    /** The URL's tool, or null once its refusal is answered. */
    private McpAppTool tool(Context ctx) {
        try {
            return serve.open(ctx.pathParam("server_code"));
        } catch (ApiException e) {
            int status = e.error() == ApiError.NOT_FOUND ? 404 : e.error() == ApiError.APP_UNAVAILABLE ? 400 : 503;
            if (status == 503) {
                LOG.warn("MCP server door could not read its app's tool: {}", e.getMessage());
            }
            error(ctx, status, McpSchema.ErrorCodes.INVALID_REQUEST, status == 503 ? "The server cannot answer now; "
                    + "try again later." : e.getMessage());
            return null;
        }
    }

    /** The body, at most the limit (a declared length past it is refused before reading), or null once refused. */
    private String body(Context ctx) {
        if (ctx.req().getContentLengthLong() > maxBodyBytes) {
            tooLarge(ctx);
            return null;
        }
        try (InputStream in = ctx.req().getInputStream()) {
            byte[] raw = in.readNBytes((int) Math.min(Integer.MAX_VALUE - 8, maxBodyBytes + 1));
            if (raw.length > maxBodyBytes) {
                tooLarge(ctx);
                return null;
            }
            return new String(raw, StandardCharsets.UTF_8);
        } catch (IOException e) {
            error(ctx, 400, McpSchema.ErrorCodes.PARSE_ERROR, "The request's body could not be read.");
            return null;
        }
    }

    private void tooLarge(Context ctx) {
        error(ctx, 413, McpSchema.ErrorCodes.INVALID_REQUEST, "The request is larger than the " + maxBodyBytes
                + " bytes an MCP server reads.");
    }

    /** A JSON-RPC error whose request is not known (its id is null, as JSON-RPC answers then). */
    private static void error(Context ctx, int status, int code, String message) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("jsonrpc", McpSchema.JSONRPC_VERSION);
        body.put("id", null);
        body.put("error", Map.of("code", code, "message", message));
        write(ctx, status, body);
    }

    private static void write(Context ctx, int status, Object body) {
        try {
            ResponseBodies.write(ctx, status, "application/json", Json.MAPPER.writeValueAsBytes(body));
        } catch (IOException e) {
            throw new IllegalStateException("an MCP answer could not be written as JSON", e);
        }
    }

    /** The SDK's JSON mapper (Jackson 3), made at the first MCP request rather than at every server's start. */
    private static final class Json {
        static final McpJsonMapper MAPPER = McpJsonDefaults.getMapper();
    }
}
