package dev.hexaflow.application.common;

import dev.hexaflow.application.common.port.out.SecretGenerator;
import dev.hexaflow.application.common.port.out.Signer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Clock;
import java.time.Duration;
import java.util.Base64;

/**
 * File URLs signed as Dify signs them ({@code file-preview|id|timestamp|nonce}, HMAC-SHA256, URL-safe base64):
 * Dify's {@code sign_tool_file} for tool files and {@code get_signed_file_url} for uploads sign the same message,
 * so one signer serves both. A URL serves its file for {@link #ACCESS_TIMEOUT} (Dify's {@code FILES_ACCESS_TIMEOUT})
 * from the moment it was made. The signer's key is this process's: a URL does not outlive a restart, and a client
 * asks again for a new one, as it would after the five minutes.
 */
public final class FileSignatures {

    /** Dify's FILES_ACCESS_TIMEOUT default. */
    public static final Duration ACCESS_TIMEOUT = Duration.ofMinutes(5);

    private final Signer signer;
    private final SecretGenerator secrets;
    private final Clock clock;

    public FileSignatures(Signer signer, SecretGenerator secrets, Clock clock) {
        this.signer = signer;
        this.secrets = secrets;
        this.clock = clock;
    }

    /** {@code path?timestamp=&nonce=&sign=}, signed for the file {@code id}, from now on. */
    public String signed(String path, String id) {
        String timestamp = String.valueOf(clock.instant().getEpochSecond());
        String nonce = secrets.newSecret(32);
        String sign = Base64.getUrlEncoder().encodeToString(signature(id, timestamp, nonce));
        return path + "?timestamp=" + timestamp + "&nonce=" + nonce + "&sign=" + sign;
    }

    /** Whether this server signed these parts for the file {@code id}, less than the access timeout ago. */
    public boolean valid(String id, String timestamp, String nonce, String sign) {
        if (id == null || timestamp == null || nonce == null || sign == null) {
            return false;
        }
        byte[] given;
        long signedAt;
        try {
            given = Base64.getUrlDecoder().decode(sign);
            signedAt = Long.parseLong(timestamp);
        } catch (IllegalArgumentException e) {
            return false;
        }
        long now = clock.instant().getEpochSecond();
        return MessageDigest.isEqual(signature(id, timestamp, nonce), given)
                && now - signedAt <= ACCESS_TIMEOUT.toSeconds();
    }

    private byte[] signature(String id, String timestamp, String nonce) {
        return signer.sign(("file-preview|" + id + "|" + timestamp + "|" + nonce).getBytes(StandardCharsets.UTF_8));
    }
}
