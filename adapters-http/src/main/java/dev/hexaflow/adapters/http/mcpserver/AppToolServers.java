package dev.hexaflow.adapters.http.mcpserver;

import dev.hexaflow.application.common.ApiError;
import dev.hexaflow.application.common.ApiException;
import dev.hexaflow.application.mcpserver.port.in.ServeMcpServerUseCase;
import dev.hexaflow.application.mcpserver.port.in.ServeMcpServerUseCase.McpAppTool;
import dev.hexaflow.application.mcpserver.port.in.ServeMcpServerUseCase.McpToolAnswer;
import io.modelcontextprotocol.common.McpTransportContext;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpStatelessServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.server.McpStatelessServerHandler;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpStatelessServerTransport;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;

/**
 * The SDK's stateless MCP server of each app's tool, made once per version of the tool (the server's settings and
 * the app's published workflow) and kept for the next request: {@code initialize}, {@code ping}, {@code tools/list}
 * and {@code tools/call} are the SDK's, the arguments checked against the tool's schema by it before a run starts.
 */
final class AppToolServers {

    private static final Logger LOG = LoggerFactory.getLogger(AppToolServers.class);
    /** The servers kept; past them the least recently used is let go (a stateless server holds nothing open). */
    private static final int KEPT = 128;

    private final ServeMcpServerUseCase serve;
    private final String version;
    private final Duration requestTimeout;
    private final Map<String, McpStatelessServerHandler> handlers = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, McpStatelessServerHandler> eldest) {
            return size() > KEPT;
        }
    };

    /**
     * @param version        Hexaflow's version, told as the server's
     * @param requestTimeout the longest the SDK lets one request take (past the use case's own wait)
     */
    AppToolServers(ServeMcpServerUseCase serve, String version, Duration requestTimeout) {
        this.serve = serve;
        this.version = version;
        this.requestTimeout = requestTimeout;
    }

    /** The handler of this tool's server, made when its version is new. */
    synchronized McpStatelessServerHandler of(String code, McpAppTool tool) {
        return handlers.computeIfAbsent(code + "/" + tool.version(), key -> made(code, tool));
    }

    private McpStatelessServerHandler made(String code, McpAppTool tool) {
        Driven transport = new Driven();
        McpSchema.Tool described = McpSchema.Tool.builder().name(tool.name()).description(tool.description())
                .inputSchema(tool.inputSchema()).build();
        McpServer.sync(transport)
                .serverInfo("Hexaflow", version)
                .instructions(tool.description())
                .capabilities(McpSchema.ServerCapabilities.builder().tools(false).build())
                // Dify names the tool after the app, spaces and all.
                .strictToolNameValidation(false)
                .validateToolInputs(true)
                .jsonSchemaValidator(McpJsonDefaults.getSchemaValidator())
                .requestTimeout(requestTimeout)
                .tools(new SyncToolSpecification(described, (context, request) -> call(code, request)))
                .build();
        return transport.handler.get();
    }

    /**
     * A call: the run's text, or its failure as an error result; a refusal before the run as an MCP error (Dify's
     * {@code ValueError} is INVALID_PARAMS).
     */
    private McpSchema.CallToolResult call(String code, McpSchema.CallToolRequest request) {
        McpToolAnswer answer;
        try {
            answer = serve.call(code, request.arguments() == null ? Map.of() : request.arguments());
        } catch (ApiException e) {
            int kind = e.error() == ApiError.INVALID_PARAM ? McpSchema.ErrorCodes.INVALID_PARAMS
                    : e.error() == ApiError.NOT_FOUND ? McpSchema.ErrorCodes.INVALID_REQUEST
                    : McpSchema.ErrorCodes.INTERNAL_ERROR;
            throw McpError.builder(kind).message(e.getMessage()).build();
        }
        if (answer.failed()) {
            LOG.info("MCP server call of app tool ended in error, run {}", answer.runId());
        }
        // A turn an annotation answered started no run, so it has no run to name.
        Map<String, Object> meta = answer.runId() == null ? Map.of() : Map.of("workflow_run_id", answer.runId());
        return McpSchema.CallToolResult.builder().addTextContent(answer.text()).isError(answer.failed())
                .meta(meta).build();
    }

    /** A transport the route drives: it only keeps the handler the SDK's server sets on it. */
    private static final class Driven implements McpStatelessServerTransport {
        private final AtomicReference<McpStatelessServerHandler> handler = new AtomicReference<>();

        @Override
        public void setMcpHandler(McpStatelessServerHandler mcpHandler) {
            handler.set(mcpHandler);
        }

        @Override
        public Mono<Void> closeGracefully() {
            return Mono.empty();
        }
    }

    /** The context a request is handled in: nothing of the HTTP request is needed past the code. */
    static McpTransportContext context() {
        return McpTransportContext.EMPTY;
    }
}
