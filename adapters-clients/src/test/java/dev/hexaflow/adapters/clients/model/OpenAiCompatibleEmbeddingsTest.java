package dev.hexaflow.adapters.clients.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hexaflow.adapters.nodes.fakes.FakeModelServer;
import dev.hexaflow.application.knowledge.port.out.Embeddings;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class OpenAiCompatibleEmbeddingsTest {

    private final FakeModelServer server = new FakeModelServer();

    @AfterEach
    void close() {
        server.close();
    }

    private OpenAiCompatibleEmbeddings embeddings(String model) {
        return new OpenAiCompatibleEmbeddings(server.baseUrl(), "sk-e", model, Duration.ofSeconds(2),
                Duration.ofSeconds(5));
    }

    @Test
    void textsAreSentInOneCallWithTheModelAndAnsweredInOrder() {
        List<float[]> vectors = embeddings("embed-1").embed(List.of("paid leave", "bike parking"));

        assertThat(vectors).hasSize(2);
        assertThat(vectors.get(0)).containsExactly(FakeModelServer.vector("paid leave"));
        assertThat(vectors.get(1)).containsExactly(FakeModelServer.vector("bike parking"));
        assertThat(server.embeddingRequests()).singleElement().satisfies(request -> {
            assertThat(request.get("model").asText()).isEqualTo("embed-1");
            assertThat(request.get("input")).hasSize(2);
        });
    }

    @Test
    void anEndpointErrorIsAnEmbeddingExceptionWithItsStatusAndMessage() {
        server.failEmbeddings(500);

        assertThatThrownBy(() -> embeddings("embed-1").embed(List.of("x")))
                .isInstanceOf(Embeddings.EmbeddingException.class)
                .hasMessageContaining("500").hasMessageContaining("embeddings are down");
    }

    @Test
    void withoutAModelThereAreNoEmbeddings() {
        OpenAiCompatibleEmbeddings none = embeddings(null);

        assertThat(none.model()).isEmpty();
        assertThatThrownBy(() -> none.embed(List.of("x"))).hasMessageContaining("HEXAFLOW_EMBEDDING_MODEL");
    }
}
