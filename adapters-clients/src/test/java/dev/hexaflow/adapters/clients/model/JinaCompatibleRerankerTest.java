package dev.hexaflow.adapters.clients.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hexaflow.adapters.nodes.fakes.FakeModelServer;
import dev.hexaflow.application.knowledge.port.out.Reranker;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class JinaCompatibleRerankerTest {

    private final FakeModelServer server = new FakeModelServer();

    @AfterEach
    void close() {
        server.close();
    }

    private JinaCompatibleReranker reranker(String model) {
        return new JinaCompatibleReranker(server.baseUrl(), "sk-r", model, Duration.ofSeconds(2),
                Duration.ofSeconds(5));
    }

    @Test
    void documentsAreSentWithTheModelQueryAndTopNAndAnsweredBestFirstByTheirIndex() {
        List<Reranker.Ranked> ranked = reranker("rerank-1").rerank("paid leave", List.of("a", "b", "c"), 2);

        assertThat(ranked).containsExactly(new Reranker.Ranked(2, 1.0), new Reranker.Ranked(1, 2 / 3.0));
        assertThat(server.rerankRequests()).singleElement().satisfies(request -> {
            assertThat(request.get("model").asText()).isEqualTo("rerank-1");
            assertThat(request.get("query").asText()).isEqualTo("paid leave");
            assertThat(request.get("documents")).hasSize(3);
            assertThat(request.get("top_n").asInt()).isEqualTo(2);
        });
    }

    @Test
    void anEndpointErrorIsARerankExceptionWithItsStatus() {
        server.failRerank(503);

        assertThatThrownBy(() -> reranker("rerank-1").rerank("q", List.of("x"), 1))
                .isInstanceOf(Reranker.RerankException.class).hasMessageContaining("503");
    }

    @Test
    void withoutAModelThereIsNoReranking() {
        JinaCompatibleReranker none = reranker(" ");

        assertThat(none.model()).isEmpty();
        assertThatThrownBy(() -> none.rerank("q", List.of("x"), 1)).hasMessageContaining("HEXAFLOW_RERANK_MODEL");
        assertThat(server.rerankRequests()).isEmpty();
    }
}
