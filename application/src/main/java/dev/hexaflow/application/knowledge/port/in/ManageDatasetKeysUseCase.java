package dev.hexaflow.application.knowledge.port.in;

/** Issues, checks and revokes the Knowledge API's keys. */
public interface ManageDatasetKeysUseCase {

    /** A new key ({@code dataset-} and 24 letters and digits), shown this once. */
    String issue();

    /**
     * Checks a bearer token.
     *
     * @throws KnowledgeException UNAUTHORIZED unless it is a dataset key that was issued and not revoked
     */
    void check(String token);

    /** @throws KnowledgeException NOT_FOUND for a key that is not kept */
    void revoke(String key);
}
