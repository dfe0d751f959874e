package dev.hexaflow.domain.net;

import java.util.List;
import java.util.Optional;

/**
 * The kinds of address a request from a workflow must not reach unless the operator allows them: the server's
 * own machine, the network's link (where clouds keep their metadata service) and the private networks where
 * internal services live.
 */
public enum ReservedRange {

    /** 127/8 and ::1: services bound to the server's own machine, unexposed on purpose. */
    LOOPBACK("loopback", "127.0.0.0/8", "::1/128"),
    /** 0/8 and ::: a connection to "this host" reaches the server's own machine on Linux. */
    UNSPECIFIED("unspecified", "0.0.0.0/8", "::/128"),
    /** 169.254/16 and fe80::/10: the cloud metadata service (169.254.169.254) and the local link. */
    LINK_LOCAL("link-local", "169.254.0.0/16", "fe80::/10"),
    /**
     * RFC 1918 networks, the shared address space 100.64/10 (Alibaba Cloud's metadata at 100.100.100.200),
     * IPv6 unique local addresses, and the local-use NAT64 prefix 64:ff9b:1::/48 (RFC 8215, whose addresses carry
     * an IPv4 address at a place only their network knows): where internal APIs live.
     */
    PRIVATE("private network", "10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "100.64.0.0/10", "fc00::/7",
            "64:ff9b:1::/48");

    private final String label;
    private final List<AddressRange> ranges;

    ReservedRange(String label, String... ranges) {
        this.label = label;
        this.ranges = java.util.Arrays.stream(ranges).map(AddressRange::parse).toList();
    }

    /** How an error message names it: "loopback", "link-local"... */
    public String label() {
        return label;
    }

    public List<AddressRange> ranges() {
        return ranges;
    }

    /** The reserved kind the address is of, if any. */
    public static Optional<ReservedRange> of(IpAddress address) {
        for (ReservedRange kind : values()) {
            if (kind.ranges.stream().anyMatch(range -> range.contains(address))) {
                return Optional.of(kind);
            }
        }
        return Optional.empty();
    }
}
