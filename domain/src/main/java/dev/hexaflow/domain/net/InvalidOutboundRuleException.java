package dev.hexaflow.domain.net;

/** An address, range or host name rule that cannot be read. */
public final class InvalidOutboundRuleException extends IllegalArgumentException {

    public InvalidOutboundRuleException(String message) {
        super(message);
    }
}
