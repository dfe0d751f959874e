package dev.hexaflow.workflow.nodes;

import dev.hexaflow.workflow.engine.NodeExecutor;
import dev.hexaflow.workflow.engine.NodeFailure;
import dev.hexaflow.workflow.engine.NodeResult;
import dev.hexaflow.workflow.engine.PreparedNode;
import dev.hexaflow.workflow.engine.StopSignal;
import dev.hexaflow.workflow.port.out.KnowledgeRetriever;
import dev.hexaflow.workflow.port.out.ModelProvider;
import dev.hexaflow.domain.knowledge.KnowledgeBase;
import dev.hexaflow.domain.knowledge.MetadataFilter;
import dev.hexaflow.domain.knowledge.RetrievalSettings;
import dev.hexaflow.domain.knowledge.SearchMethod;
import dev.hexaflow.domain.workflow.DataTree;
import dev.hexaflow.domain.workflow.InvalidNodeDataException;
import dev.hexaflow.domain.workflow.Node;
import dev.hexaflow.domain.workflow.NodeType;
import dev.hexaflow.domain.workflow.Values;
import dev.hexaflow.domain.workflow.VariableSelector;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * knowledge-retrieval: searches the knowledge bases its {@code dataset_ids} name with the query its
 * {@code query_variable_selector} points at, and answers {@code result}: Dify's list of chunks, best first, each
 * with its content, its document's name as title, and metadata naming the base, document and chunk with the score.
 *
 * <p>Multiple mode (Dify's default): every base is searched by its own method, with the node's {@code top_k},
 * {@code score_threshold} and hybrid weights, and the best of all are kept, reranked first by the rerank model when
 * the config asks for {@code reranking_model} (see RetrieveKnowledgeService for when none is configured). Single
 * mode: the {@code single_retrieval_config} model picks one base by function calling ({@link #route}), searched with
 * its own settings. Metadata filtering:
 * manual conditions on the documents' metadata; automatic filtering (conditions a model writes) is not run, and
 * searches without a filter.
 *
 * <p>An id names a base by its own id or one bound to it; an id that names none is told at import and passed over
 * when a run reaches the node, as Dify passes over a dataset it cannot find: with none left, {@code result} is empty
 * and the run goes on.
 */
public final class KnowledgeRetrievalNode implements NodeExecutor {

    /** A tool name an OpenAI-compatible endpoint takes; Dify names each base's tool by its id. */
    private static final Pattern TOOL_NAME = Pattern.compile("[A-Za-z0-9_-]{1,64}");
    /** Dify's FunctionCallMultiDatasetRouter: its prompt and its fixed sampling. */
    private static final String ROUTER_SYSTEM = "You are a helpful AI assistant.";
    private static final Map<String, Object> ROUTER_PARAMETERS = Map.of("temperature", 0.2, "top_p", 0.3,
            "max_tokens", 1500);

    private final KnowledgeRetriever knowledge;
    private final ModelProvider models;

    /** @param models the chat endpoint that picks a base in single mode; null when none is configured */
    public KnowledgeRetrievalNode(KnowledgeRetriever knowledge, ModelProvider models) {
        this.knowledge = knowledge;
        this.models = models;
    }

    @Override
    public NodeType type() {
        return NodeType.KNOWLEDGE_RETRIEVAL;
    }

    @Override
    public PreparedNode prepare(Node node) {
        DataTree data = node.data();
        List<String> baseIds = data.list("dataset_ids").stream().map(String::valueOf).toList();
        Optional<VariableSelector> querySelector = data.optionalSelector("query_variable_selector");
        boolean single = data.string("retrieval_mode", "multiple").equals("single");
        Optional<RetrievalSettings> settings = single ? Optional.empty()
                : Optional.of(settings(data.tree("multiple_retrieval_config")));
        Optional<KnowledgeRetriever.Rerank> rerank = single ? Optional.empty()
                : rerankRequest(data.tree("multiple_retrieval_config"));
        MetadataFilter filter = data.string("metadata_filtering_mode", "disabled").equals("manual")
                ? filter(data.tree("metadata_filtering_conditions")) : MetadataFilter.NONE;
        DataTree router = data.tree("single_retrieval_config").tree("model");
        List<VariableSelector> references = querySelector.map(List::of).orElse(List.of());
        return PreparedNode.of(references, Optional.of(java.util.Set.of("result")), ctx -> {
            String query = querySelector.flatMap(ctx.pool()::get).map(Values::text).orElse("");
            Map<String, Object> inputs = Map.of("query", query);
            if (baseIds.isEmpty() || query.isBlank()) {
                return NodeResult.of(inputs, Map.of("result", List.of()));
            }
            // As Dify's _fetch_dataset_retriever: a base this server does not have is passed over.
            List<String> available = baseIds.stream().filter(knowledge::exists).toList();
            if (available.isEmpty()) {
                return NodeResult.of(inputs, Map.of("result", List.of()));
            }
            List<String> searched = available;
            if (single) {
                Optional<String> chosen = route(available, query, router, ctx);
                if (chosen.isEmpty()) {
                    return NodeResult.of(inputs, Map.of("result", List.of()));
                }
                searched = List.of(chosen.get());
            }
            List<KnowledgeRetriever.Hit> found;
            try {
                found = knowledge.search(new KnowledgeRetriever.Search(searched, query, settings, filter, rerank));
            } catch (KnowledgeRetriever.RetrievalFailure e) {
                throw new NodeFailure("KnowledgeRetrievalNodeError", e.getMessage(), e);
            }
            List<Object> result = new ArrayList<>();
            for (int i = 0; i < found.size(); i++) {
                result.add(item(found.get(i), i + 1));
            }
            return NodeResult.of(inputs, Map.of("result", result));
        });
    }

    /**
     * Single mode's choice, as Dify's FunctionCallMultiDatasetRouter makes it: one base is searched without asking;
     * of several, each is a tool named by its id and described by its description (or "useful for when you want to
     * answer queries about" its name), and the model's first tool call picks one. No call, or a call that fails:
     * no base, and the node answers an empty result. No model endpoint at all fails the node, as an llm node does.
     */
    private Optional<String> route(List<String> ids, String query, DataTree model, StopSignal stop) {
        if (ids.size() == 1) {
            return Optional.of(ids.get(0));
        }
        ModelNodes.checkReady(models);
        Map<String, String> idsByTool = new LinkedHashMap<>();
        List<ModelProvider.Tool> tools = new ArrayList<>();
        for (String id : ids) {
            KnowledgeBase base = knowledge.base(id).orElseThrow(() ->
                    new NodeFailure("KnowledgeRetrievalNodeError", unbound(id), null));
            String tool = id;
            // An id that cannot be a tool's name gets one no other id of the list is, nor another tool's.
            for (int n = idsByTool.size() + 1; !TOOL_NAME.matcher(tool).matches() || idsByTool.containsKey(tool)
                    || (!tool.equals(id) && ids.contains(tool)); n++) {
                tool = "dataset_" + n;
            }
            idsByTool.put(tool, id);
            String description = base.description().isBlank()
                    ? "useful for when you want to answer queries about the " + base.name() : base.description();
            tools.add(new ModelProvider.Tool(tool, description, Map.of("type", "object", "properties", Map.of(),
                    "required", List.of())));
        }
        ModelProvider.ChatResult result;
        try {
            result = models.chat(new ModelProvider.ChatRequest(model.string("provider", ""), model.string("name", ""),
                    List.of(ModelProvider.ChatMessage.of("system", ROUTER_SYSTEM),
                            ModelProvider.ChatMessage.of("user", query)), ROUTER_PARAMETERS, tools), piece -> { },
                    stop);
        } catch (ModelProvider.ModelException e) {
            return Optional.empty();
        }
        return result.toolCalls().stream().map(call -> idsByTool.get(call.name())).filter(Objects::nonNull)
                .findFirst();
    }

    /** Names the bases this server does not have, with how to make them. */
    @Override
    public List<String> warnings(Node node) {
        List<String> warnings = new ArrayList<>();
        for (Object id : node.data().list("dataset_ids")) {
            if (!knowledge.exists(String.valueOf(id))) {
                warnings.add("The knowledge base " + id + " is not in Hexaflow, so "
                        + node.data().string("title", node.id()) + " finds nothing in it (as in Dify, the run goes "
                        + "on without it); create a base with that id "
                        + "(POST /admin/knowledge/bases {\"id\": \"" + id + "\", \"name\": ...}) or bind the id to "
                        + "a base (hexaflow knowledge bind " + id + " BASE, or POST "
                        + "/admin/knowledge/bases/BASE/aliases {\"dataset_id\": \"" + id + "\"}).");
            }
        }
        return warnings;
    }

    private static String unbound(String id) {
        return "the knowledge base " + id + " is not in Hexaflow; create a base with that id (POST "
                + "/admin/knowledge/bases {\"id\": \"" + id + "\", \"name\": ...}) and add its documents, or bind the "
                + "id to a base (hexaflow knowledge bind " + id + " BASE).";
    }

    /** Dify's multiple_retrieval_config: top_k, score_threshold, and the weights of a weighted_score rerank. */
    private static RetrievalSettings settings(DataTree config) {
        int topK = (int) config.longValue("top_k", 4);
        Optional<Double> threshold = number(config.get("score_threshold"), "score_threshold");
        if (!config.bool("score_threshold_enabled", threshold.isPresent())) {
            threshold = Optional.empty();
        }
        DataTree weights = config.tree("weights");
        double vector = number(weights.tree("vector_setting").get("vector_weight"), "vector_weight").orElse(0.7);
        double keyword = number(weights.tree("keyword_setting").get("keyword_weight"), "keyword_weight")
                .orElse(0.3);
        try {
            return new RetrievalSettings(SearchMethod.HYBRID_SEARCH, topK, threshold, vector, keyword);
        } catch (IllegalArgumentException e) {
            throw new InvalidNodeDataException("multiple_retrieval_config", e.getMessage());
        }
    }

    /**
     * Dify's rerank by model: {@code reranking_mode} {@code reranking_model} (its default) with a
     * {@code reranking_model} that names a model, unless {@code reranking_enable} is false.
     */
    private static Optional<KnowledgeRetriever.Rerank> rerankRequest(DataTree config) {
        DataTree model = config.tree("reranking_model");
        String name = model.string("model", "");
        if (!config.bool("reranking_enable", true) || name.isBlank()
                || !config.string("reranking_mode", "reranking_model").equals("reranking_model")) {
            return Optional.empty();
        }
        return Optional.of(new KnowledgeRetriever.Rerank(model.string("provider", ""), name));
    }

    private static MetadataFilter filter(DataTree conditions) {
        List<MetadataFilter.Condition> list = new ArrayList<>();
        for (DataTree condition : conditions.trees("conditions")) {
            String name = condition.string("comparison_operator", "is");
            MetadataFilter.Operator operator = MetadataFilter.Operator.fromWireName(name).orElseThrow(() ->
                    new InvalidNodeDataException("comparison_operator", "'" + name + "' is not one of Dify's "
                            + "metadata operators"));
            Object value = condition.get("value");
            list.add(new MetadataFilter.Condition(condition.string("name", ""), operator,
                    value instanceof List<?> values ? String.join(",", values.stream().map(String::valueOf).toList())
                            : value == null ? "" : String.valueOf(value)));
        }
        try {
            return MetadataFilter.of(conditions.string("logical_operator", "and"), list);
        } catch (IllegalArgumentException e) {
            throw new InvalidNodeDataException("metadata_filtering_conditions", e.getMessage());
        }
    }

    private static Optional<Double> number(Object value, String field) {
        if (value == null || value instanceof String s && s.isBlank()) {
            return Optional.empty();
        }
        if (value instanceof Number n) {
            return Optional.of(n.doubleValue());
        }
        try {
            return Optional.of(Double.parseDouble(String.valueOf(value)));
        } catch (NumberFormatException e) {
            throw new InvalidNodeDataException(field, "must be a number");
        }
    }

    /** One item of {@code result}, in the shape of Dify's {@code _fetch_dataset_retriever}. */
    private static Map<String, Object> item(KnowledgeRetriever.Hit hit, int position) {
        Map<String, Object> metadata = new LinkedHashMap<>();
        metadata.put("_source", "knowledge");
        metadata.put("dataset_id", hit.base().id());
        metadata.put("dataset_name", hit.base().name());
        metadata.put("document_id", hit.document().id());
        metadata.put("document_name", hit.document().name());
        metadata.put("data_source_type", hit.document().source());
        metadata.put("segment_id", hit.chunk().id());
        metadata.put("retriever_from", "workflow");
        metadata.put("score", hit.score());
        List<Object> children = new ArrayList<>();
        for (KnowledgeRetriever.ChildHit child : hit.children()) {
            Map<String, Object> one = new LinkedHashMap<>();
            one.put("id", child.child().id());
            one.put("content", child.child().content());
            one.put("position", (long) child.child().position());
            one.put("score", child.score());
            children.add(one);
        }
        metadata.put("child_chunks", children);
        metadata.put("segment_hit_count", hit.chunk().hitCount() + 1);
        metadata.put("segment_word_count", (long) hit.chunk().wordCount());
        metadata.put("segment_position", (long) hit.chunk().position());
        metadata.put("segment_index_node_hash", hit.chunk().indexNodeHash());
        metadata.put("doc_metadata", hit.document().metadata());
        metadata.put("position", (long) position);
        Map<String, Object> item = new LinkedHashMap<>();
        item.put("metadata", metadata);
        item.put("title", hit.document().name());
        item.put("files", null);
        item.put("content", hit.chunk().content());
        return item;
    }
}
