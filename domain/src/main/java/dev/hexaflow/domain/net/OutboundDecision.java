package dev.hexaflow.domain.net;

/** What the outbound policy says of one address a request would connect to. */
public sealed interface OutboundDecision {

    /** The request may connect. */
    record Allowed() implements OutboundDecision {
    }

    /** The address is reserved and no rule of the operator allows it. */
    record Reserved(String host, IpAddress address, ReservedRange kind) implements OutboundDecision {
    }

    /** The operator's deny rule names the host or the address. */
    record Denied(String host, IpAddress address, String rule) implements OutboundDecision {
    }
}
