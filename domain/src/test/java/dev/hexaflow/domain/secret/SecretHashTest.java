package dev.hexaflow.domain.secret;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class SecretHashTest {

    @Test
    void theHashIsTheSha256OfTheSecret() {
        assertThat(SecretHash.of("abc").hex())
                .isEqualTo("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    }

    @Test
    void onlyTheSameSecretMatches() {
        SecretHash hash = SecretHash.of("s3cret-token");
        assertThat(hash.matches("s3cret-token")).isTrue();
        assertThat(hash.matches("s3cret-tokem")).isFalse();
        assertThat(hash.matches(null)).isFalse();
    }

    @Test
    void theTextOfAHashNeverShowsItWhole() {
        SecretHash hash = SecretHash.of("x");
        assertThat(hash.toString()).doesNotContain(hash.hex());
    }

    @Test
    void aMalformedHashIsRefused() {
        assertThatThrownBy(() -> new SecretHash("zz")).hasMessageContaining("64");
    }
}
