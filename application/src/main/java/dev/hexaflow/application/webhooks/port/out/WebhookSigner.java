package dev.hexaflow.application.webhooks.port.out;

/** Signs a webhook delivery under its app's secret, so that the receiver can tell it came from this server. */
public interface WebhookSigner {

    /** The lowercase hex HMAC-SHA256 of {@code message} under the UTF-8 bytes of {@code secret}. */
    String sign(String secret, byte[] message);
}
