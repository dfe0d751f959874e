package dev.hexaflow.domain.trigger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;

/** An operator's protection of a webhook: each kind with the right proof, a wrong one and none. */
class WebhookAuthTest {

    private static final String SECRET = "s3cret-of-16-chars";
    private static final String BODY = "{\"event\":\"paid\"}";

    private static TestCall post() {
        return TestCall.of("POST").raw(BODY);
    }

    private static String signature(String secret) {
        return HexFormat.of().formatHex(WebhookAuth.signature(secret, BODY.getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void noAuthenticationAdmitsEveryCall() {
        assertThat(WebhookAuth.none().admits(post().build())).isTrue();
    }

    @Test
    void aHeaderAuthenticationAdmitsOnlyTheExactSecretInThatHeaderInAnyCase() {
        WebhookAuth auth = WebhookAuth.header("X-Webhook-Token", SECRET);

        assertThat(auth.admits(post().header("x-webhook-token", SECRET).build())).isTrue();
        assertThat(auth.admits(post().header("X-Webhook-Token", SECRET + "x").build())).isFalse();
        assertThat(auth.admits(post().header("X-Other", SECRET).build())).isFalse();
    }

    @Test
    void aBearerAuthenticationAdmitsOnlyTheSecretAsBearerToken() {
        WebhookAuth auth = WebhookAuth.bearer(SECRET);

        assertThat(auth.admits(post().header("Authorization", "Bearer " + SECRET).build())).isTrue();
        assertThat(auth.admits(post().header("authorization", "bearer " + SECRET).build())).isTrue();
        assertThat(auth.admits(post().header("Authorization", "Basic " + SECRET).build())).isFalse();
        assertThat(auth.admits(post().header("Authorization", "Bearer wrong-secret-value").build())).isFalse();
        assertThat(auth.admits(post().build())).isFalse();
    }

    @Test
    void anHmacAuthenticationAdmitsTheBodysSignatureWithOrWithoutItsPrefix() {
        WebhookAuth auth = WebhookAuth.hmac(null, SECRET);

        assertThat(auth.headerName()).isEqualTo("X-Hexaflow-Signature");
        assertThat(auth.admits(post().header("X-Hexaflow-Signature", signature(SECRET)).build())).isTrue();
        assertThat(auth.admits(post().header("X-Hexaflow-Signature", "sha256=" + signature(SECRET)).build()))
                .isTrue();
        assertThat(auth.admits(post().header("X-Hexaflow-Signature", signature(SECRET).toUpperCase()).build()))
                .isTrue();
    }

    @Test
    void anHmacAuthenticationRefusesAnotherSecretsSignatureAnotherBodyOrNoSignature() {
        WebhookAuth auth = WebhookAuth.hmac("X-Signature", SECRET);
        String good = signature(SECRET);

        assertThat(auth.admits(post().header("X-Signature", signature("another-secret-value")).build())).isFalse();
        assertThat(auth.admits(TestCall.of("POST").raw(BODY + " ").header("X-Signature", good).build())).isFalse();
        assertThat(auth.admits(post().header("X-Signature", "not hex").build())).isFalse();
        assertThat(auth.admits(post().header("X-Hexaflow-Signature", good).build())).isFalse();
    }

    @Test
    void theSignatureIsRfc4231sHmacSha256AndTheJdksForAnyLengthOfKey() throws Exception {
        byte[] data = "what do ya want for nothing?".getBytes(StandardCharsets.UTF_8);
        assertThat(HexFormat.of().formatHex(WebhookAuth.signature("Jefe", data)))
                .isEqualTo("5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
        for (String key : new String[] {"k", SECRET, "k".repeat(64), "long key ".repeat(20)}) {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
            assertThat(WebhookAuth.signature(key, data)).as("key of %d", key.length()).isEqualTo(mac.doFinal(data));
        }
    }

    @Test
    void theSecretNeverShowsInTheTextOfTheSettings() {
        for (WebhookAuth auth : new WebhookAuth[] {WebhookAuth.header("X-Token", SECRET),
                WebhookAuth.bearer(SECRET), WebhookAuth.hmac(null, SECRET)}) {
            assertThat(auth.toString()).doesNotContain(SECRET).contains(auth.kind().wireName());
        }
    }

    @Test
    void aShortSecretAHeaderKindWithoutItsHeaderAndAnUnknownKindAreRefused() {
        assertThatThrownBy(() -> WebhookAuth.bearer("short")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("16");
        assertThatThrownBy(() -> WebhookAuth.header(" ", SECRET)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> WebhookAuth.Kind.fromWireName("basic")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'basic'").hasMessageContaining("none, header, bearer or hmac");
        assertThat(WebhookAuth.Kind.fromWireName("hmac")).isEqualTo(WebhookAuth.Kind.HMAC);
    }
}
