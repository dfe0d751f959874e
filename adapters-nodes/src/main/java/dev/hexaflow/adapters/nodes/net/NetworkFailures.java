package dev.hexaflow.adapters.nodes.net;

import java.io.EOFException;
import java.io.IOException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.SocketException;
import java.net.UnknownHostException;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpTimeoutException;
import java.nio.channels.ClosedChannelException;
import javax.net.ssl.SSLException;

/**
 * Why a network call failed, in words a person reads. The JDK's HTTP client often fails with no message at all (a
 * refused connection is a {@link ConnectException} whose message is null), which an error that quotes messages
 * shows as "null"; here each kind of failure says what it means, and the outbound policy's refusal says its own
 * reason.
 */
public final class NetworkFailures {

    private NetworkFailures() {
    }

    /** What went wrong, found anywhere in {@code failure}'s causes; never null, never a Java class name. */
    public static String reason(Throwable failure) {
        for (Throwable t = failure; t != null; t = next(t)) {
            if (t instanceof OutboundExchange.RefusedException refused) {
                return refused.getMessage();
            }
        }
        for (Throwable t = failure; t != null; t = next(t)) {
            String kind = kind(t);
            if (kind != null) {
                return kind;
            }
        }
        for (Throwable t = failure; t != null; t = next(t)) {
            if (t.getMessage() != null && !t.getMessage().isBlank()) {
                return t.getMessage();
            }
        }
        return "the connection failed";
    }

    private static String kind(Throwable t) {
        if (t instanceof HttpConnectTimeoutException) {
            return "the connection timed out";
        } else if (t instanceof HttpTimeoutException) {
            return "it did not answer in time";
        } else if (t instanceof UnknownHostException) {
            return "its host name is unknown" + (t.getMessage() == null ? "" : " (" + t.getMessage() + ")");
        } else if (t instanceof NoRouteToHostException) {
            return "no route leads to its host";
        } else if (t instanceof ConnectException) {
            return "the connection was refused";
        } else if (t instanceof SSLException) {
            return "the TLS handshake failed" + (t.getMessage() == null ? "" : ": " + t.getMessage());
        } else if (t instanceof EOFException || t instanceof ClosedChannelException || closedEarly(t)) {
            return "the connection closed before an answer came";
        }
        return null;
    }

    /**
     * The JDK's client reports a peer that closed or reset the connection before answering as a plain
     * {@link IOException} ("HTTP/1.1 header parser received no bytes") or a {@link SocketException} ("Connection
     * reset"), depending on the moment it happened.
     */
    private static boolean closedEarly(Throwable t) {
        String message = t.getMessage();
        if (message == null) {
            return false;
        }
        return (t instanceof SocketException && message.startsWith("Connection reset"))
                || (t instanceof IOException && message.contains("received no bytes"));
    }

    private static Throwable next(Throwable t) {
        return t.getCause() == t ? null : t.getCause();
    }
}
