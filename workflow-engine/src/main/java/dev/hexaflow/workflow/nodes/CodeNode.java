package dev.hexaflow.workflow.nodes;

import dev.hexaflow.workflow.engine.NodeExecutor;
import dev.hexaflow.workflow.engine.NodeFailure;
import dev.hexaflow.workflow.engine.NodeResult;
import dev.hexaflow.workflow.engine.PreparedNode;
import dev.hexaflow.workflow.port.out.CodeRunner;
import dev.hexaflow.domain.workflow.DataTree;
import dev.hexaflow.domain.workflow.FileValue;
import dev.hexaflow.domain.workflow.InvalidNodeDataException;
import dev.hexaflow.domain.workflow.Node;
import dev.hexaflow.domain.workflow.NodeType;
import dev.hexaflow.domain.workflow.Values;
import dev.hexaflow.domain.workflow.VariableSelector;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * code: calls the code's {@code main} with its variables through the runner of its language, then checks the
 * result against the declared outputs as Dify does.
 */
public final class CodeNode implements NodeExecutor {

    private final Map<String, CodeRunner> runners = new LinkedHashMap<>();

    public CodeNode(List<CodeRunner> runners) {
        runners.forEach(runner -> this.runners.put(runner.language(), runner));
    }

    @Override
    public NodeType type() {
        return NodeType.CODE;
    }

    @Override
    public PreparedNode prepare(Node node) {
        DataTree data = node.data();
        String language = data.string("code_language", "python3");
        if (!language.equals("python3") && !language.equals("javascript")) {
            throw new InvalidNodeDataException("code_language", "'" + language + "' is not python3 or javascript");
        }
        String code = data.string("code", "");
        Map<String, VariableSelector> variables = new LinkedHashMap<>();
        for (DataTree variable : data.trees("variables")) {
            variables.put(variable.string("variable"), variable.selector("value_selector"));
        }
        DataTree schema = data.tree("outputs");
        Set<String> outputs = new LinkedHashSet<>(schema.asMap().keySet());
        return PreparedNode.of(new ArrayList<>(variables.values()), Optional.of(outputs), context -> {
            CodeRunner runner = runners.get(language);
            if (runner == null) {
                throw new NodeFailure("CodeExecutionError", "No " + language
                        + " runner is configured on this server.", null);
            }
            Map<String, Object> inputs = new LinkedHashMap<>();
            variables.forEach((name, selector) -> inputs.put(name,
                    codeValue(context.pool().get(selector).orElse(null))));
            Map<String, Object> result;
            try {
                result = runner.run(code, inputs, context);
            } catch (CodeRunner.CodeException e) {
                throw new NodeFailure("CodeExecutionError", e.getMessage(), e);
            }
            Object normalized = Values.normalize(result);
            @SuppressWarnings("unchecked")
            Map<String, Object> checked = CodeOutputs.check((Map<String, Object>) normalized, schema);
            return NodeResult.of(inputs, checked);
        });
    }

    /** Files reach code as Dify's file dicts; everything else as it is. */
    private static Object codeValue(Object value) {
        if (value instanceof FileValue file) {
            return file.asMap();
        }
        if (value instanceof List<?> list && !list.isEmpty() && list.stream().allMatch(FileValue.class::isInstance)) {
            return list.stream().map(f -> ((FileValue) f).asMap()).toList();
        }
        return value;
    }
}
