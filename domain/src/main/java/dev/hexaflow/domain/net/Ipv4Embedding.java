package dev.hexaflow.domain.net;

import java.util.ArrayList;
import java.util.List;

/**
 * The IPv6 forms that carry an IPv4 address, and where they carry it. A packet to such an address may reach the
 * IPv4 address it carries (through a NAT64 gateway, a 6to4 or Teredo relay, an ISATAP router, a stack that still
 * speaks the deprecated forms), so the outbound policy judges the address by that IPv4 address too. IPv4-mapped
 * addresses ({@code ::ffff:a.b.c.d}) are not here: {@link IpAddress} reads them as the IPv4 address itself.
 *
 * <p>The local-use NAT64 prefix {@code 64:ff9b:1::/48} (RFC 8215) is not here either: its network chooses a prefix
 * length (RFC 6052 allows 48 to 96 bits there) that decides where the IPv4 address sits, and an address does not
 * tell which; {@link ReservedRange#PRIVATE} closes the prefix whole instead.
 */
public enum Ipv4Embedding {

    /** {@code 64:ff9b::/96}, NAT64's well-known prefix (RFC 6052): the last 32 bits. */
    NAT64("NAT64") {
        @Override
        IpAddress carried(byte[] b) {
            return b[0] == 0 && b[1] == 0x64 && b[2] == (byte) 0xff && b[3] == (byte) 0x9b && zero(b, 4, 12)
                    ? ipv4(b, 12, false) : null;
        }
    },
    /** {@code 2002::/16}, 6to4 (RFC 3056): bits 16 to 47. */
    SIX_TO_FOUR("6to4") {
        @Override
        IpAddress carried(byte[] b) {
            return b[0] == 0x20 && b[1] == 0x02 ? ipv4(b, 2, false) : null;
        }
    },
    /** {@code 2001::/32}, Teredo (RFC 4380): the Teredo server's address in bits 32 to 63. */
    TEREDO_SERVER("Teredo") {
        @Override
        IpAddress carried(byte[] b) {
            return teredo(b) ? ipv4(b, 4, false) : null;
        }
    },
    /** {@code 2001::/32}, Teredo: the client's address in the last 32 bits, each bit inverted. */
    TEREDO_CLIENT("Teredo") {
        @Override
        IpAddress carried(byte[] b) {
            return teredo(b) ? ipv4(b, 12, true) : null;
        }
    },
    /**
     * {@code ::/96}, IPv4-compatible (deprecated by RFC 4291): the last 32 bits. {@code ::} and {@code ::1} are
     * IPv6's own unspecified and loopback addresses, and are judged as such.
     */
    COMPATIBLE("IPv4-compatible") {
        @Override
        IpAddress carried(byte[] b) {
            boolean ownAddress = zero(b, 12, 15) && (b[15] == 0 || b[15] == 1);
            return zero(b, 0, 12) && !ownAddress ? ipv4(b, 12, false) : null;
        }
    },
    /** {@code ::ffff:0:0:0/96}, IPv4-translated (RFC 2765, SIIT): the last 32 bits. */
    TRANSLATED("IPv4-translated") {
        @Override
        IpAddress carried(byte[] b) {
            return zero(b, 0, 8) && b[8] == (byte) 0xff && b[9] == (byte) 0xff && b[10] == 0 && b[11] == 0
                    ? ipv4(b, 12, false) : null;
        }
    },
    /**
     * Any prefix with an ISATAP interface identifier (RFC 5214), {@code 0:5efe} or {@code 200:5efe} (the
     * universal and group bits either way): the last 32 bits.
     */
    ISATAP("ISATAP") {
        @Override
        IpAddress carried(byte[] b) {
            return (b[8] & 0xfc) == 0 && b[9] == 0 && b[10] == 0x5e && b[11] == (byte) 0xfe
                    ? ipv4(b, 12, false) : null;
        }
    };

    private final String label;

    Ipv4Embedding(String label) {
        this.label = label;
    }

    /** How a message names the form: "NAT64", "6to4"... */
    public String label() {
        return label;
    }

    /** The IPv4 address this form carries in these 16 bytes, or null when they are not of this form. */
    abstract IpAddress carried(byte[] bytes);

    /** An IPv4 address an IPv6 address carries, and the form that carries it. */
    public record Carried(Ipv4Embedding form, IpAddress ipv4) {
    }

    /** Every IPv4 address the address carries (Teredo carries two), none for an IPv4 address. */
    public static List<Carried> in(IpAddress address) {
        if (address.isIpv4()) {
            return List.of();
        }
        byte[] bytes = address.bytes();
        List<Carried> carried = new ArrayList<>(2);
        for (Ipv4Embedding form : values()) {
            IpAddress ipv4 = form.carried(bytes);
            if (ipv4 != null) {
                carried.add(new Carried(form, ipv4));
            }
        }
        return carried;
    }

    private static boolean teredo(byte[] b) {
        return b[0] == 0x20 && b[1] == 0x01 && b[2] == 0 && b[3] == 0;
    }

    /** Whether bytes {@code from} (inclusive) to {@code to} (exclusive) are all zero. */
    private static boolean zero(byte[] bytes, int from, int to) {
        for (int i = from; i < to; i++) {
            if (bytes[i] != 0) {
                return false;
            }
        }
        return true;
    }

    private static IpAddress ipv4(byte[] bytes, int from, boolean inverted) {
        byte[] quad = new byte[4];
        for (int i = 0; i < 4; i++) {
            quad[i] = (byte) (inverted ? ~bytes[from + i] : bytes[from + i]);
        }
        return IpAddress.of(quad);
    }
}
