package dev.hexaflow.application.knowledge;

import static dev.hexaflow.application.knowledge.ManageKnowledgeBasesServiceTest.assertRefused;
import static org.assertj.core.api.Assertions.assertThat;

import dev.hexaflow.application.common.port.out.StorageHealth;
import dev.hexaflow.application.knowledge.port.in.CreateKnowledgeBaseCommand;
import dev.hexaflow.application.knowledge.port.in.KnowledgeException.Reason;
import dev.hexaflow.application.knowledge.port.in.RetrieveKnowledgeQuery;
import dev.hexaflow.application.knowledge.port.in.RetrievedChunk;
import dev.hexaflow.application.knowledge.port.out.Embeddings;
import dev.hexaflow.application.knowledge.service.ManageKnowledgeBasesService;
import dev.hexaflow.domain.knowledge.IndexingTechnique;
import dev.hexaflow.domain.knowledge.KnowledgeBase;
import dev.hexaflow.domain.knowledge.MetadataFilter;
import dev.hexaflow.domain.knowledge.RetrievalSettings;
import dev.hexaflow.domain.knowledge.SearchMethod;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * How a base is searched: by meaning, by words or both, per base when several are searched at once, and what a base
 * asked for meaning becomes without an embedding model; on the bed, with the handbook of
 * {@link RetrieveKnowledgeServiceTest}.
 */
class KnowledgeSearchModesTest {

    private final KnowledgeBed bed = new KnowledgeBed();

    KnowledgeSearchModesTest() {
        bed.base("hq", IndexingTechnique.HIGH_QUALITY);
        bed.base("kw", IndexingTechnique.ECONOMY);
        bed.add("hq", "handbook.md", RetrieveKnowledgeServiceTest.HANDBOOK);
        bed.add("kw", "it.md", "Laptops: the IT desk replaces a broken laptop within two days.");
    }

    @AfterEach
    void close() {
        bed.close();
    }

    private List<RetrievedChunk> search(String baseId, String query, RetrievalSettings settings) {
        return bed.retrieve.retrieve(RetrieveKnowledgeQuery.of(baseId, query, settings));
    }

    private static RetrievalSettings weighted(double vector, double keyword) {
        return new RetrievalSettings(SearchMethod.HYBRID_SEARCH, 3, Optional.empty(), vector, keyword);
    }

    private static Map<String, Double> scores(List<RetrievedChunk> hits) {
        return hits.stream().collect(java.util.stream.Collectors.toMap(hit -> hit.chunk().id(),
                RetrievedChunk::score));
    }

    @Test
    void aHybridSearchWeighsMeaningAndWordsAsItsWeightsSay() {
        String query = "laptops lock passwords";
        Map<String, Double> meaning = scores(search("hq", query, RetrievalSettings.defaults(
                SearchMethod.SEMANTIC_SEARCH)));
        Map<String, Double> words = scores(search("hq", query, RetrievalSettings.defaults(
                SearchMethod.KEYWORD_SEARCH)));

        Map<String, Double> meaningOnly = scores(search("hq", query, weighted(1, 0)));
        Map<String, Double> wordsOnly = scores(search("hq", query, weighted(0, 1)));
        List<RetrievedChunk> even = search("hq", query, weighted(0.5, 0.5));

        assertThat(meaningOnly).containsAllEntriesOf(meaning);
        assertThat(wordsOnly).containsAllEntriesOf(words);
        assertThat(even).allSatisfy(hit -> assertThat(hit.score()).isCloseTo((meaning.getOrDefault(hit.chunk().id(),
                0.0) + words.getOrDefault(hit.chunk().id(), 0.0)) / 2, org.assertj.core.data.Offset.offset(1e-5)));
    }

    @Test
    void aKeywordOnlyBaseAskedForMeaningIsSearchedByItsWords() {
        List<RetrievedChunk> hits = search("kw", "laptop", RetrievalSettings.defaults(SearchMethod.SEMANTIC_SEARCH));

        assertThat(hits).extracting(hit -> hit.document().name()).containsExactly("it.md");
        assertThat(hits.get(0).score()).isEqualTo(1.0);
    }

    @Test
    void twoBasesSearchedTogetherShareOneTopKAndEachMayKeepItsOwnMethod() {
        RetrieveKnowledgeQuery both = new RetrieveKnowledgeQuery(List.of("hq", "kw"), "laptops", Optional.of(
                new RetrievalSettings(SearchMethod.SEMANTIC_SEARCH, 2, Optional.empty(), 0.7, 0.3)),
                MetadataFilter.NONE, true);

        List<RetrievedChunk> hits = bed.retrieve.retrieve(both);

        assertThat(hits).hasSize(2);
        assertThat(hits).extracting(hit -> hit.base().id()).contains("hq", "kw");
        assertThat(hits).extracting(RetrievedChunk::score).isSortedAccordingTo((a, b) -> Double.compare(b, a));
    }

    @Test
    void aQueryThatCannotBeEmbeddedIsRefusedWhileAWordsSearchStillAnswers() {
        bed.embeddingsFail = true;

        assertRefused(() -> search("hq", "laptops", RetrievalSettings.defaults(SearchMethod.SEMANTIC_SEARCH)),
                Reason.INVALID, "The query could not be embedded: the embeddings endpoint answered 503");
        assertThat(search("hq", "laptops", RetrievalSettings.defaults(SearchMethod.FULL_TEXT_SEARCH))).isNotEmpty();
    }

    @Test
    void aBaseAskedForMeaningWithoutAnEmbeddingModelIsKeywordOnly() {
        Embeddings none = new Embeddings() {
            @Override
            public Optional<String> model() {
                return Optional.empty();
            }

            @Override
            public List<float[]> embed(List<String> texts) {
                throw new EmbeddingException("no embeddings endpoint is configured", null);
            }
        };
        ManageKnowledgeBasesService bases = new ManageKnowledgeBasesService(bed.repository, bed.index, none,
                bed.clock, bed::nextId, StorageHealth.UNWATCHED);

        KnowledgeBase base = bases.create(new CreateKnowledgeBaseCommand(Optional.of("plain"), "Plain", "",
                IndexingTechnique.HIGH_QUALITY, Optional.empty()));

        assertThat(base.keywordOnly()).isTrue();
        assertThat(base.indexingTechnique()).isEqualTo(IndexingTechnique.ECONOMY);
        assertThat(base.retrieval().method()).isEqualTo(SearchMethod.KEYWORD_SEARCH);
    }

    @Test
    void aDeletedBaseFreesTheIdsBoundToIt() {
        bed.bases.bind("dify-ds", "kw");

        bed.bases.delete("kw");

        assertThat(bed.bases.find("dify-ds")).isEmpty();
        assertThat(bed.retrieve.exists("dify-ds")).isFalse();
        bed.base("dify-ds", IndexingTechnique.ECONOMY);
        assertThat(bed.bases.find("dify-ds").orElseThrow().id()).isEqualTo("dify-ds");
    }
}
