package dev.hexaflow.domain.net;

import java.util.Arrays;
import java.util.Locale;

/**
 * An IP address as its bytes: 4 for IPv4, 16 for IPv6. An IPv4-mapped IPv6 address ({@code ::ffff:a.b.c.d}) is
 * the IPv4 address it maps, because a connection to it reaches that IPv4 address.
 */
public final class IpAddress {

    private final byte[] bytes;

    private IpAddress(byte[] bytes) {
        this.bytes = bytes;
    }

    /** The address of these bytes (4 or 16); a mapped IPv6 address becomes its IPv4 address. */
    public static IpAddress of(byte[] bytes) {
        if (bytes == null || (bytes.length != 4 && bytes.length != 16)) {
            throw new InvalidOutboundRuleException("an IP address has 4 or 16 bytes");
        }
        if (bytes.length == 16 && isMapped(bytes)) {
            return new IpAddress(Arrays.copyOfRange(bytes, 12, 16));
        }
        return new IpAddress(bytes.clone());
    }

    /**
     * An address written as a literal: a dotted quad ({@code 10.0.0.1}) or IPv6 text ({@code fe80::1},
     * {@code [::1]}, {@code ::ffff:127.0.0.1}); nothing is looked up.
     *
     * @throws InvalidOutboundRuleException when the text is no IP literal
     */
    public static IpAddress parse(String text) {
        String literal = text == null ? "" : text.strip();
        if (literal.startsWith("[") && literal.endsWith("]")) {
            literal = literal.substring(1, literal.length() - 1);
        }
        byte[] bytes = literal.contains(":") ? ipv6(literal) : ipv4(literal);
        if (bytes == null) {
            throw new InvalidOutboundRuleException("'" + text + "' is not an IP address");
        }
        return of(bytes);
    }

    /** Whether {@code text} is an IP literal as {@link #parse} reads it. */
    public static boolean isLiteral(String text) {
        try {
            parse(text);
            return true;
        } catch (InvalidOutboundRuleException e) {
            return false;
        }
    }

    public boolean isIpv4() {
        return bytes.length == 4;
    }

    /** The address's bytes, a copy. */
    public byte[] bytes() {
        return bytes.clone();
    }

    /** Whether the first {@code bits} bits of this address and {@code other} are the same (same family only). */
    boolean sharesPrefix(IpAddress other, int bits) {
        if (other.bytes.length != bytes.length) {
            return false;
        }
        int whole = bits / 8;
        for (int i = 0; i < whole; i++) {
            if (bytes[i] != other.bytes[i]) {
                return false;
            }
        }
        int rest = bits % 8;
        if (rest == 0) {
            return true;
        }
        int mask = (0xff << (8 - rest)) & 0xff;
        return (bytes[whole] & mask) == (other.bytes[whole] & mask);
    }

    private static boolean isMapped(byte[] bytes) {
        for (int i = 0; i < 10; i++) {
            if (bytes[i] != 0) {
                return false;
            }
        }
        return bytes[10] == (byte) 0xff && bytes[11] == (byte) 0xff;
    }

    private static byte[] ipv4(String text) {
        String[] parts = text.split("\\.", -1);
        if (parts.length != 4) {
            return null;
        }
        byte[] bytes = new byte[4];
        for (int i = 0; i < 4; i++) {
            Integer value = decimal(parts[i]);
            if (value == null || value > 255) {
                return null;
            }
            bytes[i] = (byte) (int) value;
        }
        return bytes;
    }

    private static Integer decimal(String part) {
        if (part.isEmpty() || part.length() > 3 || !part.chars().allMatch(c -> c >= '0' && c <= '9')) {
            return null;
        }
        return Integer.parseInt(part);
    }

    /** IPv6 text: groups of hex, at most one {@code ::}, an IPv4 tail; a zone ({@code %eth0}) is ignored. */
    private static byte[] ipv6(String text) {
        int zone = text.indexOf('%');
        String literal = zone < 0 ? text : text.substring(0, zone);
        int gap = literal.indexOf("::");
        if (gap >= 0 && literal.indexOf("::", gap + 1) >= 0) {
            return null;
        }
        byte[] head = groups(gap < 0 ? literal : literal.substring(0, gap), gap < 0);
        byte[] tail = gap < 0 ? new byte[0] : groups(literal.substring(gap + 2), true);
        if (head == null || tail == null) {
            return null;
        }
        if (gap < 0 ? head.length != 16 : head.length + tail.length > 14) {
            return null;
        }
        byte[] bytes = new byte[16];
        System.arraycopy(head, 0, bytes, 0, head.length);
        System.arraycopy(tail, 0, bytes, 16 - tail.length, tail.length);
        return bytes;
    }

    /** Colon-separated hex groups, the last of which may be a dotted quad when {@code last} says it ends the text. */
    private static byte[] groups(String text, boolean last) {
        if (text.isEmpty()) {
            return new byte[0];
        }
        String[] parts = text.split(":", -1);
        byte[] bytes = new byte[parts.length * 2 + 2];
        int length = 0;
        for (int i = 0; i < parts.length; i++) {
            String part = parts[i];
            if (last && i == parts.length - 1 && part.contains(".")) {
                byte[] quad = ipv4(part);
                if (quad == null) {
                    return null;
                }
                System.arraycopy(quad, 0, bytes, length, 4);
                length += 4;
                continue;
            }
            if (part.isEmpty() || part.length() > 4
                    || !part.toLowerCase(Locale.ROOT).chars().allMatch(c -> Character.digit(c, 16) >= 0)) {
                return null;
            }
            int value = Integer.parseInt(part, 16);
            bytes[length++] = (byte) (value >> 8);
            bytes[length++] = (byte) value;
        }
        return Arrays.copyOf(bytes, length);
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof IpAddress address && Arrays.equals(bytes, address.bytes);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(bytes);
    }

    /** Dotted quad, or eight hex groups with the longest run of zero groups written {@code ::}. */
    @Override
    public String toString() {
        if (isIpv4()) {
            return (bytes[0] & 0xff) + "." + (bytes[1] & 0xff) + "." + (bytes[2] & 0xff) + "." + (bytes[3] & 0xff);
        }
        int[] groups = new int[8];
        for (int i = 0; i < 8; i++) {
            groups[i] = ((bytes[2 * i] & 0xff) << 8) | (bytes[2 * i + 1] & 0xff);
        }
        int bestStart = -1;
        int bestLength = 1;
        for (int i = 0; i < 8; i++) {
            int j = i;
            while (j < 8 && groups[j] == 0) {
                j++;
            }
            if (j - i > bestLength) {
                bestStart = i;
                bestLength = j - i;
            }
            i = Math.max(i, j);
        }
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < 8; i++) {
            if (i == bestStart) {
                text.append("::");
                i += bestLength - 1;
                continue;
            }
            if (text.length() > 0 && text.charAt(text.length() - 1) != ':') {
                text.append(':');
            }
            text.append(Integer.toHexString(groups[i]));
        }
        return text.toString();
    }
}
