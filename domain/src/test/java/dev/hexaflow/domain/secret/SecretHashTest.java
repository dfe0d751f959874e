package dev.hexaflow.domain.secret;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.junit.jupiter.api.Test;

class SecretHashTest {

    private static final String ABC = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";

    @Test
    void theHashIsTheSha256OfTheSecret() {
        assertThat(SecretHash.of("abc").hex()).isEqualTo(ABC);
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
        assertThatThrownBy(() -> new SecretHash(null)).hasMessageContaining("64");
        String cut = ABC.substring(1);
        for (String bad : List.of(ABC.toUpperCase(Locale.ROOT), cut, ABC + "0", cut + "g", cut + "/", cut + ":",
                cut + "`", cut + "G", cut + "\u0660")) {
            assertThatThrownBy(() -> new SecretHash(bad)).as(bad).hasMessageContaining("64");
        }
    }

    @Test
    void hashesMadeOnManyThreadsAtOnceAreEachTheirSecretsOwn() throws InterruptedException {
        Queue<String> wrong = new ConcurrentLinkedQueue<>();
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < 8; t++) {
            String secret = "secret-" + t;
            String expected = SecretHash.of(secret).hex();
            Thread thread = new Thread(() -> {
                for (int i = 0; i < 2_000; i++) {
                    String hex = SecretHash.of(secret).hex();
                    if (!hex.equals(expected)) {
                        wrong.add(secret + " gave " + hex);
                    }
                }
            });
            thread.start();
            threads.add(thread);
        }
        for (Thread thread : threads) {
            thread.join();
        }
        assertThat(wrong).isEmpty();
        assertThat(SecretHash.of("abc").hex()).isEqualTo(ABC);
    }
}
