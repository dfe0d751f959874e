package dev.hexaflow.app.adapters;

import dev.hexaflow.adapters.persistence.jdbi.JdbiSharedSecrets;
import dev.hexaflow.app.wiring.Instance;
import dev.hexaflow.application.common.port.out.Signer;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.function.Supplier;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.jdbi.v3.core.Jdbi;

/**
 * HMAC-SHA256 under 256 random bits. An instance alone on its store draws them at start, so nothing signed before
 * a restart verifies after it; instances that share a store share the key too (kept in the store under a name), so
 * that what one signed verifies on every other.
 */
public final class HmacSigner implements Signer {

    private final Supplier<byte[]> secret;
    private volatile SecretKeySpec key;

    private HmacSigner(Supplier<byte[]> secret) {
        this.secret = secret;
    }

    /** A signer under a key drawn now, for this process alone. */
    public HmacSigner() {
        this(HmacSigner::randomKey); // drawn once: the key is kept at the first signature
    }

    /**
     * The signer of {@code name}: this process's own, or, where instances share the store, theirs, read from the
     * store at the first signature (the store is made ready after the modules are made).
     */
    public static HmacSigner of(String name, Instance instance, Jdbi jdbi) {
        if (!instance.shared()) {
            return new HmacSigner();
        }
        return new HmacSigner(() -> HexFormat.of().parseHex(new JdbiSharedSecrets(jdbi).secretOrAdd("hmac:" + name,
                () -> HexFormat.of().formatHex(randomKey()))));
    }

    private SecretKeySpec key() {
        SecretKeySpec known = key;
        if (known == null) {
            known = new SecretKeySpec(secret.get(), "HmacSHA256");
            key = known; // two first signatures at once read the same stored secret
        }
        return known;
    }

    private static byte[] randomKey() {
        byte[] secret = new byte[32];
        new SecureRandom().nextBytes(secret);
        return secret;
    }

    @Override
    public byte[] sign(byte[] message) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(key());
            return mac.doFinal(message);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is part of every JDK", e);
        }
    }
}
