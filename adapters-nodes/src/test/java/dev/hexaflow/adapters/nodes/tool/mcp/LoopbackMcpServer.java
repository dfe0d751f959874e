package dev.hexaflow.adapters.nodes.tool.mcp;

import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.server.transport.HttpServletSseServerTransportProvider;
import io.modelcontextprotocol.server.transport.HttpServletStreamableServerTransportProvider;
import io.modelcontextprotocol.spec.McpSchema;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.Filter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.net.InetSocketAddress;
import java.net.URI;
import java.util.EnumSet;
import java.util.concurrent.atomic.AtomicInteger;
import org.eclipse.jetty.ee10.servlet.FilterHolder;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.server.Server;

/**
 * An MCP server over Streamable HTTP on loopback (or HTTP+SSE: {@link #sse}), made with the SDK's server side in
 * Jetty, serving {@link McpTestTools} at {@code /mcp}; it answers 401 to a request without {@code X-Api-Key: the key given}
 * (no request when the key is null).
 */
public final class LoopbackMcpServer implements AutoCloseable {

    private final Server jetty;
    private final McpSyncServer mcp;
    private final AtomicInteger sessions = new AtomicInteger();

    private final boolean sse;

    public LoopbackMcpServer(String apiKey) throws Exception {
        this(apiKey, false);
    }

    /** Over the older HTTP+SSE transport: the stream at {@code /sse}, the client's messages to {@code /message}. */
    public static LoopbackMcpServer sse(String apiKey) throws Exception {
        return new LoopbackMcpServer(apiKey, true);
    }

    private LoopbackMcpServer(String apiKey, boolean sse) throws Exception {
        this.sse = sse;
        jakarta.servlet.http.HttpServlet transport = sse
                ? HttpServletSseServerTransportProvider.builder().sseEndpoint("/sse").messageEndpoint("/message")
                        .build()
                : HttpServletStreamableServerTransportProvider.builder().mcpEndpoint("/mcp").build();
        McpServer.SyncSpecification<?> spec = sse
                ? McpServer.sync((HttpServletSseServerTransportProvider) transport)
                : McpServer.sync((HttpServletStreamableServerTransportProvider) transport);
        mcp = spec
                .serverInfo("loopback-test", "1")
                .capabilities(McpSchema.ServerCapabilities.builder().tools(true).build())
                .validateToolInputs(false)
                .tools(McpTestTools.all())
                .build();
        jetty = new Server(new InetSocketAddress("127.0.0.1", 0));
        ServletContextHandler context = new ServletContextHandler();
        Filter key = (request, response, chain) -> {
            HttpServletRequest http = (HttpServletRequest) request;
            if (apiKey != null && !apiKey.equals(http.getHeader("X-Api-Key"))) {
                ((HttpServletResponse) response).sendError(401);
                return;
            }
            if (sse ? "GET".equals(http.getMethod())
                    : "POST".equals(http.getMethod()) && http.getHeader("Mcp-Session-Id") == null) {
                sessions.incrementAndGet();
            }
            chain.doFilter(request, response);
        };
        context.addFilter(new FilterHolder(key), "/*", EnumSet.of(DispatcherType.REQUEST));
        ServletHolder servlet = new ServletHolder(transport);
        servlet.setAsyncSupported(true);
        context.addServlet(servlet, "/*");
        jetty.setHandler(context);
        jetty.start();
    }

    public URI url() {
        return URI.create("http://127.0.0.1:" + port() + (sse ? "/sse" : "/mcp"));
    }

    public int port() {
        return ((org.eclipse.jetty.server.ServerConnector) jetty.getConnectors()[0]).getLocalPort();
    }

    /** How many sessions clients opened (POSTs without a session id, or SSE streams: the handshakes). */
    public int handshakes() {
        return sessions.get();
    }

    @Override
    public void close() throws Exception {
        mcp.closeGracefully();
        jetty.stop();
    }
}
