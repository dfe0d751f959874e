package dev.hexaflow.application.knowledge.service;

import dev.hexaflow.application.knowledge.port.in.KnowledgeException;
import dev.hexaflow.application.knowledge.port.in.RerankRequest;
import dev.hexaflow.application.knowledge.port.in.RetrieveKnowledgeQuery;
import dev.hexaflow.application.knowledge.port.in.RetrieveKnowledgeUseCase;
import dev.hexaflow.application.knowledge.port.in.RetrievedChunk;
import dev.hexaflow.application.knowledge.port.out.Embeddings;
import dev.hexaflow.application.knowledge.port.out.KnowledgeIndex;
import dev.hexaflow.application.knowledge.port.out.KnowledgeRepository;
import dev.hexaflow.application.knowledge.port.out.Reranker;
import dev.hexaflow.application.knowledge.port.out.StoredChildChunk;
import dev.hexaflow.application.knowledge.port.out.StoredChunk;
import dev.hexaflow.domain.knowledge.KnowledgeBase;
import dev.hexaflow.domain.knowledge.BuiltInMetadata;
import dev.hexaflow.domain.knowledge.KnowledgeDocument;
import dev.hexaflow.domain.knowledge.RetrievalSettings;
import dev.hexaflow.domain.knowledge.SearchMethod;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BiFunction;
import java.util.stream.Collectors;

/**
 * Searches bases and scores each chunk from 0 to 1, as Dify does where it can:
 * <ul>
 *   <li>by meaning: the cosine similarity of the query's vector and the chunk's (below 0 counts as 0);</li>
 *   <li>by words: BM25, divided by the best BM25 of the search, so the best match scores 1 (Dify scores keywords
 *       by TF-IDF over jieba keywords; BM25 is Lucene's, and this normalisation is Hexaflow's approximation);</li>
 *   <li>hybrid (Dify's {@code WeightRerankRunner}): the vector weight times the cosine similarity plus the keyword
 *       weight times the normalised BM25, over the chunks either search found, each chunk's cosine computed from
 *       its kept vector.</li>
 * </ul>
 * Only documents that completed indexing, are enabled and pass the metadata filter are searched; hits are read
 * back from the repository, so a chunk deleted there is never answered. An id names a base by its own id or by one
 * bound to it. Then the threshold cuts, and top_k.
 *
 * <p>A query that asks for reranking (Dify's {@code reranking_model}) sends the best candidates of all bases to the
 * rerank model, whose relevance score becomes each hit's score before the threshold and top_k apply, as Dify's
 * {@code RerankModelRunner} does. Without a rerank endpoint, or when it fails, the search's own scores stand: the
 * search answers rather than fails, and the log says so (once when none is configured).
 */
public final class RetrieveKnowledgeService implements RetrieveKnowledgeUseCase {

    /** Candidates asked of each search per chunk answered, so that a hybrid sum can reorder them. */
    private static final int CANDIDATES = 4;

    private final KnowledgeRepository repository;
    private final KnowledgeIndex index;
    private final Embeddings embeddings;
    private final Reranker reranker;
    private final AtomicBoolean toldNoReranker = new AtomicBoolean();
    private final System.Logger log = System.getLogger(RetrieveKnowledgeService.class.getName());

    public RetrieveKnowledgeService(KnowledgeRepository repository, KnowledgeIndex index, Embeddings embeddings,
            Reranker reranker) {
        this.repository = repository;
        this.index = index;
        this.embeddings = embeddings;
        this.reranker = reranker;
    }

    @Override
    public boolean exists(String baseId) {
        return Aliases.resolve(repository, baseId).isPresent();
    }

    @Override
    public Optional<KnowledgeBase> base(String baseId) {
        return Aliases.resolve(repository, baseId);
    }

    @Override
    public List<RetrievedChunk> retrieve(RetrieveKnowledgeQuery query) {
        List<KnowledgeBase> bases = new ArrayList<>();
        for (String id : query.baseIds()) {
            KnowledgeBase base = Aliases.resolve(repository, id).orElseThrow(() -> new KnowledgeException(
                    KnowledgeException.Reason.NOT_FOUND, "Dataset not found: " + id));
            // Two ids of one base (its own and a bound one) search it once.
            if (bases.stream().noneMatch(b -> b.id().equals(base.id()))) {
                bases.add(base);
            }
        }
        RetrievalSettings overall = query.settings().orElse(bases.get(0).retrieval());
        Map<String, float[]> queryVectors = new HashMap<>();
        List<RetrievedChunk> found = new ArrayList<>();
        for (KnowledgeBase base : bases) {
            RetrievalSettings settings = query.settings().map(s -> query.eachBaseMethod()
                    ? s.withMethod(base.retrieval().method()) : s).orElse(base.retrieval());
            found.addAll(search(base, settings, query, queryVectors));
        }
        if (query.rerank().isPresent()) {
            found = reranked(query, found, overall.topK() * CANDIDATES);
        }
        List<RetrievedChunk> best = found.stream()
                .filter(hit -> overall.keeps(hit.score()))
                .sorted(Comparator.comparingDouble(RetrievedChunk::score).reversed())
                .limit(overall.topK()).toList();
        if (!best.isEmpty()) {
            repository.countHits(best.stream().map(hit -> hit.chunk().id()).toList());
        }
        return best;
    }

    private List<RetrievedChunk> search(KnowledgeBase base, RetrievalSettings settings, RetrieveKnowledgeQuery query,
            Map<String, float[]> queryVectors) {
        List<KnowledgeDocument> all = repository.documents(base.id());
        Map<String, KnowledgeDocument> documents = all.stream()
                .filter(KnowledgeDocument::searchable)
                .filter(d -> query.filter().keeps(withBuiltIns(d)))
                .collect(Collectors.toMap(KnowledgeDocument::id, d -> d, (a, b) -> a, LinkedHashMap::new));
        if (documents.isEmpty() || query.query().isBlank()) {
            return List.of();
        }
        SearchMethod method = base.methodFor(settings.method());
        int limit = settings.topK() * CANDIDATES;
        // The index holds only searchable documents' chunks: when every document passes, the index need not filter.
        Set<String> allowed = documents.size() == all.size() ? null : documents.keySet();
        Map<String, Double> words = new LinkedHashMap<>();
        if (method != SearchMethod.SEMANTIC_SEARCH) {
            List<KnowledgeIndex.Hit> hits = index.byWords(base.id(), base.analyzer(), query.query(), allowed,
                    limit);
            double top = hits.stream().mapToDouble(KnowledgeIndex.Hit::score).max().orElse(1);
            hits.forEach(hit -> words.put(hit.chunkId(), top > 0 ? hit.score() / top : 0));
        }
        float[] vector = null;
        Set<String> candidates = new LinkedHashSet<>(words.keySet());
        if (method.needsVectors()) {
            vector = queryVectors.computeIfAbsent(base.embeddingModel().orElseThrow(), m -> queryVector(query));
            index.byVector(base.id(), vector, allowed, limit).forEach(hit -> candidates.add(hit.chunkId()));
        }
        float[] asked = vector;
        BiFunction<String, Optional<float[]>, Double> scoreOf = (id, kept) -> {
            double keyword = words.getOrDefault(id, 0.0);
            double meaning = asked == null ? 0 : kept.map(v -> cosine(asked, v)).orElse(0.0);
            return round(switch (method) {
                case KEYWORD_SEARCH, FULL_TEXT_SEARCH -> keyword;
                case SEMANTIC_SEARCH -> meaning;
                case HYBRID_SEARCH -> (settings.vectorWeight() * meaning + settings.keywordWeight() * keyword)
                        / (settings.vectorWeight() + settings.keywordWeight());
            });
        };
        List<RetrievedChunk> found = new ArrayList<>();
        Set<String> children = new LinkedHashSet<>(candidates);
        for (StoredChunk stored : repository.findChunks(candidates)) {
            children.remove(stored.id());
            KnowledgeDocument document = documents.get(stored.chunk().documentId());
            if (document != null && stored.chunk().enabled()) {
                found.add(new RetrievedChunk(base, document, stored.chunk(), scoreOf.apply(stored.id(),
                        stored.vector())));
            }
        }
        // The rest are child chunks: each parent answers once, scored by its best child, as Dify's does.
        found.addAll(parentsOf(children, base, documents, scoreOf));
        return found;
    }

    /** The parents of the child chunks {@code children}, each with its children's hits, scored by the best. */
    private List<RetrievedChunk> parentsOf(Set<String> children, KnowledgeBase base,
            Map<String, KnowledgeDocument> documents, BiFunction<String, Optional<float[]>, Double> scoreOf) {
        Map<String, List<RetrievedChunk.ChildHit>> bySegment = new LinkedHashMap<>();
        for (StoredChildChunk child : repository.findChildChunks(children)) {
            bySegment.computeIfAbsent(child.child().segmentId(), k -> new ArrayList<>())
                    .add(new RetrievedChunk.ChildHit(child.child(), scoreOf.apply(child.id(), child.vector())));
        }
        List<RetrievedChunk> parents = new ArrayList<>();
        for (StoredChunk parent : repository.findChunks(bySegment.keySet())) {
            KnowledgeDocument document = documents.get(parent.chunk().documentId());
            if (document != null && parent.chunk().enabled()) {
                List<RetrievedChunk.ChildHit> hits = bySegment.get(parent.id()).stream()
                        .sorted(Comparator.comparingDouble(RetrievedChunk.ChildHit::score).reversed()).toList();
                parents.add(new RetrievedChunk(base, document, parent.chunk(), hits.get(0).score(), hits));
            }
        }
        return parents;
    }

    /** The best {@code limit} hits rescored by the rerank model, or as they are when it cannot be had. */
    private List<RetrievedChunk> reranked(RetrieveKnowledgeQuery query, List<RetrievedChunk> found, int limit) {
        RerankRequest asked = query.rerank().orElseThrow();
        if (reranker.model().isEmpty()) {
            if (toldNoReranker.compareAndSet(false, true)) {
                log.log(System.Logger.Level.WARNING, "A search asked for reranking by " + asked.provider() + "/"
                        + asked.model() + ", but no rerank endpoint is configured (HEXAFLOW_RERANK_MODEL): hits "
                        + "keep their search scores (weighted for hybrid search)");
            }
            return found;
        }
        List<RetrievedChunk> candidates = found.stream()
                .sorted(Comparator.comparingDouble(RetrievedChunk::score).reversed()).limit(limit).toList();
        if (candidates.isEmpty() || query.query().isBlank()) {
            return candidates;
        }
        List<Reranker.Ranked> ranked;
        try {
            ranked = reranker.rerank(query.query(), candidates.stream().map(hit -> hit.chunk().content()).toList(),
                    candidates.size());
        } catch (Reranker.RerankException e) {
            log.log(System.Logger.Level.WARNING, "The rerank endpoint failed, so hits keep their search scores: "
                    + e.getMessage());
            return found;
        }
        List<RetrievedChunk> rescored = new ArrayList<>();
        for (Reranker.Ranked rank : ranked) {
            if (rank.index() >= 0 && rank.index() < candidates.size()) {
                RetrievedChunk hit = candidates.get(rank.index());
                rescored.add(hit.withScore(round(rank.score())));
            }
        }
        return rescored;
    }

    private float[] queryVector(RetrieveKnowledgeQuery query) {
        try {
            return embeddings.embed(List.of(query.query())).get(0);
        } catch (Embeddings.EmbeddingException e) {
            throw new KnowledgeException(KnowledgeException.Reason.INVALID, "The query could not be embedded: "
                    + e.getMessage());
        }
    }

    /** A document's metadata with Dify's built-in fields a filter may name. */
    private static Map<String, String> withBuiltIns(KnowledgeDocument document) {
        Map<String, String> all = new HashMap<>(document.metadata());
        BuiltInMetadata.of(document).forEach(all::putIfAbsent);
        return all;
    }

    static double cosine(float[] a, float[] b) {
        if (a.length != b.length) {
            return 0;
        }
        double dot = 0;
        double na = 0;
        double nb = 0;
        for (int i = 0; i < a.length; i++) {
            dot += a[i] * b[i];
            na += a[i] * a[i];
            nb += b[i] * b[i];
        }
        return na == 0 || nb == 0 ? 0 : Math.max(0, dot / Math.sqrt(na * nb));
    }

    private static double round(double score) {
        return Math.round(score * 1_000_000) / 1_000_000.0;
    }
}
