package dev.hexaflow.engine;

import dev.hexaflow.adapters.nodes.code.CodeLimits;
import dev.hexaflow.adapters.nodes.code.PythonWorkerCodeRunner;
import dev.hexaflow.adapters.nodes.code.GraalJsCodeRunner;
import dev.hexaflow.adapters.nodes.document.JdkHttpFileContents;
import dev.hexaflow.adapters.nodes.document.PdfBoxDocumentTextExtractor;
import dev.hexaflow.adapters.nodes.http.JdkHttpRequester;
import dev.hexaflow.adapters.nodes.model.OpenAiCompatibleModelProvider;
import dev.hexaflow.adapters.nodes.model.OpenAiCompatibleSpeechSynthesizer;
import dev.hexaflow.adapters.nodes.net.OutboundExchange;
import dev.hexaflow.adapters.nodes.template.JinjavaTemplateRenderer;
import dev.hexaflow.adapters.nodes.tool.JdkSqlToolRunner;
import dev.hexaflow.adapters.nodes.tool.JdkTimeToolRunner;
import dev.hexaflow.adapters.nodes.tool.JsonPathToolRunner;
import dev.hexaflow.adapters.nodes.tool.JsoupJinaReaderToolRunner;
import dev.hexaflow.adapters.nodes.tool.JsoupWebscraperToolRunner;
import dev.hexaflow.adapters.nodes.tool.OpenAiCompatibleImageToolRunner;
import dev.hexaflow.adapters.nodes.tool.OpenAiCompatibleSpeechToolRunner;
import dev.hexaflow.adapters.nodes.tool.convert.ConversionLimits;
import dev.hexaflow.adapters.nodes.tool.convert.JdkBase64ToolRunner;
import dev.hexaflow.adapters.nodes.tool.convert.PoiExcelToolRunner;
import dev.hexaflow.adapters.nodes.tool.convert.PoiMdExporterToolRunner;
import dev.hexaflow.adapters.nodes.tool.mcp.McpSdkSessions;
import dev.hexaflow.adapters.nodes.tool.mcp.McpSdkToolRunner;
import dev.hexaflow.domain.id.TimeOrderedIds;
import dev.hexaflow.domain.net.OutboundPolicy;
import dev.hexaflow.domain.tool.McpToolAddress;
import dev.hexaflow.domain.tool.ToolRef;
import dev.hexaflow.workflow.engine.EngineSettings;
import dev.hexaflow.workflow.engine.WorkflowEngine;
import dev.hexaflow.workflow.nodes.StandardNodes;
import dev.hexaflow.workflow.port.out.FileContents;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Supplier;

/** Builds the engine with the standard adapters, as the server, the command line and {@link HexaflowEngine} use it. */
public final class Engines {

    private Engines() {
    }

    private static FileContents files(OutboundExchange outbound,
            java.util.function.UnaryOperator<FileContents> uploads) {
        FileContents remote = new JdkHttpFileContents(outbound, 100L * 1024 * 1024);
        return uploads == null ? remote : uploads.apply(remote);
    }

    public static WorkflowEngine standard(EngineConfiguration config) {
        return standard(config, null, config::outbound, owned -> { });
    }

    /**
     * @param uploads  where uploaded files are read (the server's store); null for files given by URL only
     * @param outbound the outbound policy in force at each request (the server adds its own origin once it listens)
     * @param owned    told of each part with processes of its own (the code runners' workers), for the caller to
     *                 close with the engine; the parts also end their processes when the JVM exits
     */
    public static WorkflowEngine standard(EngineConfiguration config, java.util.function.UnaryOperator<FileContents> uploads,
            Supplier<OutboundPolicy> outbound, java.util.function.Consumer<AutoCloseable> owned) {
        return standard(config, uploads, outbound, owned, java.util.function.UnaryOperator.identity());
    }

    /** As above, with {@code plugs} replacing standard adapters by the caller's own (its model client, its code runner). */
    public static WorkflowEngine standard(EngineConfiguration config, java.util.function.UnaryOperator<FileContents> uploads,
            Supplier<OutboundPolicy> outbound, java.util.function.Consumer<AutoCloseable> owned,
            java.util.function.UnaryOperator<StandardNodes.Services> plugs) {
        return standard(config, uploads, outbound, tool -> Optional.empty(), owned, plugs);
    }

    private static OpenAiCompatibleImageToolRunner images(EngineConfiguration config, OutboundExchange exchange) {
        return new OpenAiCompatibleImageToolRunner(new OpenAiCompatibleImageToolRunner.Endpoint(
                config.llmBaseUrl().orElse(null), config.llmApiKey().orElse(null), config.imageModel(),
                Duration.ofSeconds(120), 50L * 1024 * 1024), exchange);
    }

    /** The built-in tools of the standard engine, as {@code provider/tool}. */
    public static List<String> builtinTools() {
        List<String> tools = new java.util.ArrayList<>(JdkTimeToolRunner.labels());
        tools.addAll(JsonPathToolRunner.labels());
        tools.addAll(JsoupWebscraperToolRunner.labels());
        tools.addAll(OpenAiCompatibleSpeechToolRunner.labels());
        tools.addAll(OpenAiCompatibleImageToolRunner.labels());
        tools.addAll(JdkSqlToolRunner.labels());
        tools.addAll(JsoupJinaReaderToolRunner.labels());
        tools.addAll(PoiMdExporterToolRunner.labels());
        tools.addAll(PoiExcelToolRunner.labels());
        tools.addAll(JdkBase64ToolRunner.labels());
        return List.copyOf(tools);
    }

    /** As above, with the tools that run over MCP: where each runs (the tool registry's bindings and servers). */
    public static WorkflowEngine standard(EngineConfiguration config, java.util.function.UnaryOperator<FileContents> uploads,
            Supplier<OutboundPolicy> outbound, Function<ToolRef, Optional<McpToolAddress>> mcpTools,
            java.util.function.Consumer<AutoCloseable> owned,
            java.util.function.UnaryOperator<StandardNodes.Services> plugs) {
        OutboundExchange exchange = new OutboundExchange(outbound);
        CodeLimits limits = new CodeLimits(config.codeTimeout(), CodeLimits.DEFAULTS.memoryBytes(),
                CodeLimits.DEFAULTS.maxResultChars());
        OpenAiCompatibleModelProvider models = new OpenAiCompatibleModelProvider(config.llmBaseUrl().orElse(null),
                config.llmApiKey().orElse(null), config.models(), config.jsonSchemaModels(), Duration.ofSeconds(10),
                Duration.ofSeconds(120));
        GraalJsCodeRunner javascript = new GraalJsCodeRunner(limits);
        PythonWorkerCodeRunner python = new PythonWorkerCodeRunner(PythonWorkerCodeRunner.locate(config.python()),
                limits);
        owned.accept(javascript);
        owned.accept(python);
        McpSdkToolRunner mcp = new McpSdkToolRunner(mcpTools, exchange, config.toolTimeout());
        owned.accept(mcp);
        OpenAiCompatibleSpeechSynthesizer speech = new OpenAiCompatibleSpeechSynthesizer(
                config.llmBaseUrl().orElse(null), config.llmApiKey().orElse(null), config.ttsModel(), "alloy");
        FileContents files = files(exchange, uploads);
        StandardNodes.Services services = StandardNodes.Services.none()
                .withTemplates(new JinjavaTemplateRenderer())
                .withCodeRunners(List.of(javascript, python))
                .withHttp(new JdkHttpRequester(exchange))
                .withModels(models)
                .withMcpSessions(new McpSdkSessions(exchange, config.toolTimeout()))
                .withDocuments(files, new PdfBoxDocumentTextExtractor(config.documents()))
                // An operator's binding (MCP) comes first: it wins over a built-in of the same name.
                .withTools(List.of(mcp, new JdkTimeToolRunner(Clock.systemUTC()), new JsonPathToolRunner(),
                        new JsoupWebscraperToolRunner(exchange, Duration.ofSeconds(30), 10L * 1024 * 1024),
                        new OpenAiCompatibleSpeechToolRunner(speech), images(config, exchange),
                        new JdkSqlToolRunner(config.sqlDatabase(), exchange),
                        new JsoupJinaReaderToolRunner(exchange, Duration.ofSeconds(30), 10L * 1024 * 1024),
                        new PoiMdExporterToolRunner(files, ConversionLimits.DEFAULTS),
                        new PoiExcelToolRunner(files, ConversionLimits.DEFAULTS),
                        new JdkBase64ToolRunner(files, ConversionLimits.DEFAULTS)));
        services = plugs.apply(services);
        EngineSettings settings = EngineSettings.DEFAULTS.withMaxSteps(config.maxSteps())
                .withMaxTime(config.maxRunTime()).withMaxTemplateLoops(config.maxTemplateLoops());
        return new WorkflowEngine(StandardNodes.catalogue(services), settings, Clock.systemUTC(),
                new TimeOrderedIds(), speech);
    }
}
