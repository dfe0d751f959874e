package dev.hexaflow.workflow.nodes;

import dev.hexaflow.workflow.engine.NodeContext;
import dev.hexaflow.workflow.engine.NodeExecutor;
import dev.hexaflow.workflow.engine.NodeFailure;
import dev.hexaflow.workflow.engine.NodeResult;
import dev.hexaflow.workflow.engine.PreparedNode;
import dev.hexaflow.workflow.port.out.DocumentTextExtractor;
import dev.hexaflow.workflow.port.out.FileContents;
import dev.hexaflow.domain.workflow.FileValue;
import dev.hexaflow.domain.workflow.Node;
import dev.hexaflow.domain.workflow.NodeType;
import dev.hexaflow.domain.workflow.VariableSelector;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * document-extractor: the text of a file (or of each file of an array) as {@code text}; remote files are read by
 * their MIME type, uploaded ones by their extension, as Dify does.
 */
public final class DocumentExtractorNode implements NodeExecutor {

    private final FileContents files;
    private final DocumentTextExtractor extractor;

    public DocumentExtractorNode(FileContents files, DocumentTextExtractor extractor) {
        this.files = files;
        this.extractor = extractor;
    }

    @Override
    public NodeType type() {
        return NodeType.DOCUMENT_EXTRACTOR;
    }

    @Override
    public PreparedNode prepare(Node node) {
        VariableSelector selector = node.data().selector("variable_selector");
        return PreparedNode.of(List.of(selector), Optional.of(Set.of("text")), context -> {
            if (!context.pool().has(selector.nodeId(), selector.variable())) {
                throw new NodeFailure("DocumentExtractorError", "File variable not found for selector: "
                        + selector, null);
            }
            Object value = context.pool().get(selector).orElse(null);
            Map<String, Object> inputs = Map.of("variable_selector", selector.path());
            if (value instanceof FileValue file) {
                return NodeResult.of(inputs, Map.of("text", text(file, context)));
            }
            if (value instanceof List<?> list && list.stream().allMatch(FileValue.class::isInstance)) {
                List<Object> texts = new ArrayList<>();
                for (Object file : list) {
                    texts.add(text((FileValue) file, context));
                }
                return NodeResult.of(inputs, Map.of("text", texts));
            }
            throw new NodeFailure("DocumentExtractorError", "Variable " + selector
                    + " is not an ArrayFileSegment", null);
        });
    }

    private String text(FileValue file, NodeContext context) {
        if (file.mimeType() == null && file.extension() == null) {
            throw new NodeFailure("UnsupportedFileTypeError", "Unable to determine file type: MIME type is missing",
                    null);
        }
        byte[] content;
        try {
            content = files.read(file, context);
        } catch (FileContents.FileException e) {
            throw new NodeFailure("FileDownloadError", "Error downloading file: " + e.getMessage(), e);
        }
        boolean remote = "remote_url".equals(file.transferMethod());
        try {
            return extractor.extract(content, remote ? null : file.extension(), file.mimeType());
        } catch (DocumentTextExtractor.ExtractionException e) {
            throw new NodeFailure("TextExtractionError", e.getMessage(), e);
        }
    }
}
