package dev.hexaflow.workflow.nodes;

import dev.hexaflow.workflow.engine.NodeExecutor;
import dev.hexaflow.workflow.engine.NodeResult;
import dev.hexaflow.workflow.engine.PreparedNode;
import dev.hexaflow.domain.workflow.FileValue;
import dev.hexaflow.domain.workflow.Node;
import dev.hexaflow.domain.workflow.NodeType;
import dev.hexaflow.domain.workflow.Values;
import dev.hexaflow.domain.workflow.VariablePool;
import dev.hexaflow.domain.workflow.VariableSelector;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;

/**
 * answer (chatflows): its template with each {@code {{#node.var#}}} as the value's markdown, as Dify's
 * convert_template gives it (a reference to nothing stays as its inner text); outputs {@code answer} and the
 * {@code files} the template shows. The text itself streams through the engine's response coordinator, as soon
 * as each part is ready, often before this node runs.
 */
public final class AnswerNode implements NodeExecutor {

    @Override
    public NodeType type() {
        return NodeType.ANSWER;
    }

    @Override
    public PreparedNode prepare(Node node) {
        String template = node.data().string("answer", "");
        List<VariableSelector> references = VariablePool.references(template);
        return PreparedNode.of(references, Optional.of(Set.of("answer", "files")), context -> {
            VariablePool pool = context.pool();
            StringBuilder answer = new StringBuilder();
            List<Object> files = new ArrayList<>();
            Matcher matcher = VariablePool.REFERENCE.matcher(template);
            int last = 0;
            while (matcher.find()) {
                answer.append(template, last, matcher.start());
                VariableSelector selector = VariableSelector.ofDotted(matcher.group(1));
                Optional<Object> value = pool.get(selector);
                if (value.isPresent() || pool.has(selector.nodeId(), selector.variable())) {
                    answer.append(Values.markdown(value.orElse(null)));
                    value.ifPresent(found -> collectFiles(found, files));
                } else {
                    answer.append(matcher.group(1));
                }
                last = matcher.end();
            }
            answer.append(template.substring(last));
            Map<String, Object> outputs = new LinkedHashMap<>();
            outputs.put("answer", answer.toString());
            outputs.put("files", files);
            return NodeResult.of(Map.of(), outputs);
        });
    }

    private static void collectFiles(Object value, List<Object> files) {
        if (value instanceof FileValue) {
            files.add(value);
        } else if (value instanceof List<?> list && !list.isEmpty()
                && list.stream().allMatch(item -> item instanceof FileValue)) {
            files.addAll(list);
        }
    }
}
