package dev.hexaflow.adapters.clients.net;

import dev.hexaflow.adapters.nodes.net.NetworkFailures;
import dev.hexaflow.adapters.nodes.net.OnFirstUseHttpClient;
import dev.hexaflow.adapters.nodes.net.OutageLog;
import dev.hexaflow.adapters.nodes.net.OutboundExchange;
import dev.hexaflow.application.webhooks.port.out.CallbackSender;
import dev.hexaflow.domain.webhook.CallbackUrl;
import java.net.URI;
import java.net.UnknownHostException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Posts webhooks with the JDK's client after the outbound policy has checked every address of the URL's host, as
 * for an http-request node. A redirect is not followed: a receiver answers 2xx, or the attempt failed (a POST
 * replayed elsewhere, or turned into a GET, is not what the receiver's owner set up). The whole exchange,
 * connection included, must end within the timeout; the answer's body is not read.
 */
public final class JdkHttpCallbackSender implements CallbackSender {

    /** What a receiver's logs show the posts as. */
    public static final String USER_AGENT = "Hexaflow-Webhook/1";
    /** By receiver (scheme, host and port): its paths and queries may hold a key of its own. */
    private static final OutageLog OUTAGES = new OutageLog("webhook receiver");

    private final OutboundExchange exchange;
    private final HttpClient client;

    public JdkHttpCallbackSender(OutboundExchange exchange) {
        this.exchange = exchange;
        // HTTP/1.1: the JDK's default offers an h2c upgrade on plain http, which some receivers mishandle.
        this.client = OnFirstUseHttpClient.of(HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .followRedirects(HttpClient.Redirect.NEVER).connectTimeout(Duration.ofSeconds(10)));
    }

    @Override
    public Answer post(CallbackUrl url, byte[] body, Map<String, String> headers, Duration timeout) {
        Answer answer = send(url, body, headers, timeout);
        if (answer.refused() || Thread.currentThread().isInterrupted()) {
            return answer; // the policy's refusal is no outage, nor is a server that stops
        }
        if (answer.status() != null && answer.status() / 100 == 2) {
            OUTAGES.answered(url.receiver());
        } else {
            OUTAGES.failed(url.receiver(), answer.error() != null ? answer.error()
                    : "it answered " + answer.status() + ", not 2xx");
        }
        return answer;
    }

    private Answer send(CallbackUrl url, byte[] body, Map<String, String> headers, Duration timeout) {
        URI uri = URI.create(url.value());
        try {
            exchange.check(uri);
        } catch (OutboundExchange.RefusedException e) {
            return Answer.refusedBecause(e.getMessage());
        } catch (UnknownHostException e) {
            return Answer.failed("The host " + uri.getHost() + " does not resolve.");
        }
        HttpRequest.Builder request = HttpRequest.newBuilder(uri).timeout(timeout)
                .POST(HttpRequest.BodyPublishers.ofByteArray(body)).header("User-Agent", USER_AGENT);
        headers.forEach(request::header);
        CompletableFuture<HttpResponse<Void>> sent = client.sendAsync(request.build(),
                HttpResponse.BodyHandlers.discarding());
        try {
            return Answer.status(sent.get(timeout.toMillis(), TimeUnit.MILLISECONDS).statusCode());
        } catch (TimeoutException e) {
            sent.cancel(true);
            return timedOut(timeout);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof HttpTimeoutException) {
                return timedOut(timeout);
            }
            return Answer.failed("The request failed: " + NetworkFailures.reason(cause) + ".");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            sent.cancel(true);
            return Answer.failed("The server stopped during the request.");
        }
    }

    private static Answer timedOut(Duration timeout) {
        return Answer.failed("No answer within " + timeout.toMillis() + " ms.");
    }
}
