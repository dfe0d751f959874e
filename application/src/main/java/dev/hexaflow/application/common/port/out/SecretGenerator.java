package dev.hexaflow.application.common.port.out;

/** Makes new secrets (API keys, tokens) that cannot be guessed. */
public interface SecretGenerator {

    /** A new secret of {@code length} lowercase letters and digits, drawn from a cryptographic source. */
    String newSecret(int length);
}
