package dev.hexaflow.workflow.nodes;

import dev.hexaflow.domain.knowledge.KnowledgeBase;
import dev.hexaflow.domain.knowledge.RetrievalSettings;
import dev.hexaflow.domain.knowledge.SearchMethod;
import dev.hexaflow.domain.tool.ToolMessage;
import dev.hexaflow.domain.tool.ToolProviderType;
import dev.hexaflow.domain.tool.ToolRef;
import dev.hexaflow.domain.workflow.DataTree;
import dev.hexaflow.domain.workflow.InvalidNodeDataException;
import dev.hexaflow.domain.workflow.Values;
import dev.hexaflow.workflow.engine.StopSignal;
import dev.hexaflow.workflow.nodes.AgentSettings.AgentTool;
import dev.hexaflow.workflow.port.out.KnowledgeRetriever;
import dev.hexaflow.workflow.port.out.ModelProvider;
import dev.hexaflow.workflow.port.out.ToolRunner;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The knowledge bases an agent node offers its model as retrieval tools, as Dify's agent-chat runner offers an
 * app's {@code dataset_configs}: the node's Hexaflow-internal {@code dataset_ids} (written by the import of an
 * agent-chat app, not by Dify's own agent node) and {@code dataset_retrieval} ({@code retrieval_model} single or
 * multiple, {@code top_k}, {@code score_threshold}). Single: one tool per base, named {@code dataset_} and its id
 * with dashes as underscores, described by the base's description (Dify's DatasetRetrieverTool), searched by the
 * base's own settings. Multiple: one tool over every base with the node's top_k and threshold (Dify's
 * DatasetMultiRetrieverTool). Each takes one {@code query} and answers the chunks' text, best first, one a line.
 * A base this server does not have is offered by no tool, so that the run goes on without it (Dify skips a base
 * it cannot find).
 */
record KnowledgeTools(List<String> baseIds, boolean multiple, Optional<RetrievalSettings> settings) {

    static final String PROVIDER = "dataset";
    /** Dify names its multi tool {@code dataset_} and the tenant's id; Hexaflow has one tenant. */
    static final String MULTI_TOOL = "dataset_multi_retriever";
    private static final String MULTI_DESCRIPTION = "dataset multi retriever and rerank. ";

    static KnowledgeTools read(DataTree data) {
        List<String> ids = data.list("dataset_ids").stream().map(String::valueOf).filter(id -> !id.isBlank())
                .toList();
        DataTree config = data.tree("dataset_retrieval");
        boolean multiple = !config.string("retrieval_model", "multiple").equals("single");
        if (!multiple) {
            return new KnowledgeTools(ids, false, Optional.empty());
        }
        Optional<Double> threshold = config.get("score_threshold") instanceof Number n
                ? Optional.of(n.doubleValue()) : Optional.empty();
        try {
            return new KnowledgeTools(ids, true, Optional.of(new RetrievalSettings(SearchMethod.HYBRID_SEARCH,
                    (int) config.longValue("top_k", 4), threshold, 0.7, 0.3)));
        } catch (IllegalArgumentException e) {
            throw new InvalidNodeDataException("dataset_retrieval", e.getMessage());
        }
    }

    /** The tools offered now: the bases the retriever has; none without a retriever. */
    List<OfferedTool> offer(Optional<KnowledgeRetriever> retriever) {
        List<OfferedTool> offered = new ArrayList<>();
        if (retriever.isEmpty() || baseIds.isEmpty()) {
            return offered;
        }
        KnowledgeRetriever knowledge = retriever.get();
        List<KnowledgeBase> found = baseIds.stream().map(knowledge::base).flatMap(Optional::stream).toList();
        if (found.isEmpty()) {
            return offered;
        }
        if (multiple) {
            offered.add(tool(MULTI_TOOL, MULTI_DESCRIPTION, "dataset multi retriever and rerank",
                    new Runner(knowledge, found.stream().map(KnowledgeBase::id).toList(), settings)));
            return offered;
        }
        for (KnowledgeBase base : found) {
            String description = base.description().isBlank()
                    ? "useful for when you want to answer queries about the " + base.name() : base.description();
            offered.add(tool("dataset_" + base.id().replace('-', '_'), description.replace("\n", "")
                    .replace("\r", ""), "Query for the dataset to be used to retrieve the dataset.",
                    new Runner(knowledge, List.of(base.id()), Optional.empty())));
        }
        return offered;
    }

    /** The bases this server does not have, each with what to do; the run goes on without them. */
    List<String> warnings(Optional<KnowledgeRetriever> retriever, String title) {
        List<String> warnings = new ArrayList<>();
        for (String id : baseIds) {
            if (retriever.isEmpty() || !retriever.get().exists(id)) {
                warnings.add("The knowledge base " + id + " is not in Hexaflow, so " + title + " is not offered "
                        + "it and answers without it; create a base with that id (POST /admin/knowledge/bases "
                        + "{\"id\": \"" + id + "\", \"name\": ...}) or bind the id to a base (hexaflow knowledge "
                        + "bind " + id + " BASE).");
            }
        }
        return warnings;
    }

    private static OfferedTool tool(String name, String description, String queryDescription, Runner runner) {
        Map<String, Object> query = new LinkedHashMap<>();
        query.put("type", "string");
        query.put("description", queryDescription);
        Map<String, Object> schema = new LinkedHashMap<>();
        schema.put("type", "object");
        schema.put("properties", Map.of("query", query));
        schema.put("required", List.of("query"));
        return new OfferedTool(new AgentTool(new ToolRef(ToolProviderType.BUILTIN, PROVIDER, name), description,
                Map.of()), runner, new ModelProvider.Tool(name, description, schema), Map.of());
    }

    /** Searches its bases with the model's {@code query}. */
    private record Runner(KnowledgeRetriever knowledge, List<String> baseIds, Optional<RetrievalSettings> settings)
            implements OfferedTool.Call {

        @Override
        public List<ToolMessage> run(Map<String, Object> arguments, StopSignal stop) {
            String query = Values.text(arguments.get("query"));
            if (query == null || query.isBlank()) {
                return List.of(new ToolMessage.Text(""));
            }
            if (stop.isStopped()) {
                throw new ToolRunner.ToolException("the run was stopped");
            }
            List<KnowledgeRetriever.Hit> hits;
            try {
                hits = knowledge.search(new KnowledgeRetriever.Search(baseIds, query, settings, null, null));
            } catch (KnowledgeRetriever.RetrievalFailure e) {
                throw new ToolRunner.ToolException(e.getMessage(), e);
            }
            List<String> texts = hits.stream().map(hit -> hit.chunk().content()).toList();
            return List.of(new ToolMessage.Text(String.join("\n", texts)));
        }
    }
}
