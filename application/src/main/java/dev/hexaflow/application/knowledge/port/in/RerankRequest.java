package dev.hexaflow.application.knowledge.port.in;

/**
 * A search's wish to have its hits reranked by a model (Dify's {@code reranking_enable} with its
 * {@code reranking_model}): the provider and model it names, kept to be told in the log, since the model called is
 * the one the operator configured.
 */
public record RerankRequest(String provider, String model) {

    public RerankRequest {
        provider = provider == null ? "" : provider;
        model = model == null ? "" : model;
    }
}
