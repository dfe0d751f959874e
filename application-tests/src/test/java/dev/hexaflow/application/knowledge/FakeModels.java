package dev.hexaflow.application.knowledge;

import dev.hexaflow.application.knowledge.port.out.Embeddings;
import dev.hexaflow.application.knowledge.port.out.Reranker;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The model ports knowledge needs, faked: embeddings as a hashed bag of a text's words (so texts that share words
 * have near vectors), and a rerank model that ranks the texts in reverse of the order it got them.
 */
final class FakeModels {

    static final int DIMENSIONS = 64;

    /** How many embedding calls were made (one per call, whatever the number of texts). */
    int embedded;
    Optional<String> rerankModel = Optional.empty();
    boolean rerankFails;
    final List<String> reranked = new ArrayList<>();

    final Embeddings embeddings = new Embeddings() {
        @Override
        public Optional<String> model() {
            return Optional.of("embed-fake");
        }

        @Override
        public List<float[]> embed(List<String> texts) {
            embedded++;
            return texts.stream().map(FakeModels::bagOfWords).toList();
        }
    };

    final Reranker reranker = new Reranker() {
        @Override
        public Optional<String> model() {
            return rerankModel;
        }

        @Override
        public List<Ranked> rerank(String query, List<String> documents, int topN) {
            reranked.add(query);
            if (rerankFails) {
                throw new RerankException("the rerank endpoint answered 502", null);
            }
            List<Ranked> ranked = new ArrayList<>();
            for (int i = documents.size() - 1; i >= 0 && ranked.size() < topN; i--) {
                ranked.add(new Ranked(i, 0.9 - 0.1 * ranked.size()));
            }
            return ranked;
        }
    };

    private static float[] bagOfWords(String text) {
        float[] vector = new float[DIMENSIONS];
        for (String word : text.toLowerCase(Locale.ROOT).split("[^a-z]+")) {
            if (!word.isEmpty()) {
                vector[Math.floorMod(word.hashCode(), DIMENSIONS)] += 1;
            }
        }
        return vector;
    }
}
