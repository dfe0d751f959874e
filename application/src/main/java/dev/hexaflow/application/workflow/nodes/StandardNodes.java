package dev.hexaflow.application.workflow.nodes;

import dev.hexaflow.application.workflow.engine.NodeCatalogue;
import dev.hexaflow.application.workflow.engine.NodeExecutor;
import dev.hexaflow.application.workflow.port.out.CodeRunner;
import dev.hexaflow.application.workflow.port.out.DocumentTextExtractor;
import dev.hexaflow.application.workflow.port.out.FileContents;
import dev.hexaflow.application.workflow.port.out.HttpRequester;
import dev.hexaflow.application.workflow.port.out.ModelProvider;
import dev.hexaflow.application.workflow.port.out.TemplateRenderer;
import dev.hexaflow.domain.workflow.NodeType;
import java.util.ArrayList;
import java.util.List;

/** Every node type Hexaflow runs, given the adapters that do their library and I/O work. */
public final class StandardNodes {

    /** The adapters the nodes need. */
    public record Services(TemplateRenderer templates, List<CodeRunner> codeRunners, HttpRequester http,
            ModelProvider models, FileContents files, DocumentTextExtractor documents) {
        public Services {
            codeRunners = codeRunners == null ? List.of() : List.copyOf(codeRunners);
        }
    }

    private StandardNodes() {
    }

    public static NodeCatalogue catalogue(Services services) {
        List<NodeExecutor> executors = new ArrayList<>(List.of(
                new StartNode(),
                new EndNode(),
                new IfElseNode(),
                new VariableAggregatorNode(NodeType.VARIABLE_AGGREGATOR),
                new VariableAggregatorNode(NodeType.VARIABLE_ASSIGNER),
                new AssignerNode(),
                new ListOperatorNode(),
                new IterationNode(),
                new LoopNode(),
                new PassiveNode(NodeType.ITERATION_START),
                new PassiveNode(NodeType.LOOP_START),
                new PassiveNode(NodeType.LOOP_END),
                new CodeNode(services.codeRunners())));
        if (services.templates() != null) {
            executors.add(new TemplateTransformNode(services.templates()));
        }
        if (services.http() != null) {
            executors.add(new HttpRequestNode(services.http()));
        }
        executors.add(new LlmNode(services.models(), services.templates()));
        executors.add(new QuestionClassifierNode(services.models()));
        executors.add(new ParameterExtractorNode(services.models()));
        if (services.files() != null && services.documents() != null) {
            executors.add(new DocumentExtractorNode(services.files(), services.documents()));
        }
        return new NodeCatalogue(executors);
    }
}
