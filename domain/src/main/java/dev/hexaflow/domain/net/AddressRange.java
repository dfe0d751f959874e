package dev.hexaflow.domain.net;

/**
 * A CIDR range ({@code 10.0.0.0/8}, {@code fe80::/10}); a single address is the range of its full length. A range
 * written in IPv4-mapped IPv6 form ({@code ::ffff:127.0.0.0/104}) is the IPv4 range it maps.
 */
public record AddressRange(IpAddress base, int prefixLength) {

    public AddressRange {
        if (base == null) {
            throw new InvalidOutboundRuleException("a range needs its base address");
        }
        int bits = base.isIpv4() ? 32 : 128;
        if (prefixLength < 0 || prefixLength > bits) {
            throw new InvalidOutboundRuleException("the prefix length of " + base + " must be 0 to " + bits
                    + ", was " + prefixLength);
        }
    }

    /**
     * {@code address} or {@code address/length}.
     *
     * @throws InvalidOutboundRuleException when the text is neither
     */
    public static AddressRange parse(String text) {
        String written = text == null ? "" : text.strip();
        int slash = written.indexOf('/');
        String literal = slash < 0 ? written : written.substring(0, slash);
        IpAddress base = IpAddress.parse(literal);
        boolean mappedForm = !base.isIpv4() || literal.contains(":");
        int length;
        if (slash < 0) {
            length = base.isIpv4() ? 32 : 128;
        } else {
            String digits = written.substring(slash + 1);
            if (digits.isEmpty() || digits.length() > 3 || !digits.chars().allMatch(Character::isDigit)) {
                throw new InvalidOutboundRuleException("'" + text + "' has no prefix length after '/'");
            }
            length = Integer.parseInt(digits);
            if (base.isIpv4() && mappedForm) {
                // ::ffff:a.b.c.d/n: the IPv4 part is the last 32 of the 128 bits.
                if (length < 96) {
                    throw new InvalidOutboundRuleException("'" + text + "' reaches outside the IPv4-mapped range");
                }
                length -= 96;
            }
        }
        return new AddressRange(base, length);
    }

    /** Whether the address is in this range; an IPv4 address is never in an IPv6 range, nor the other way. */
    public boolean contains(IpAddress address) {
        return address.sharesPrefix(base, prefixLength);
    }

    @Override
    public String toString() {
        return base + "/" + prefixLength;
    }
}
