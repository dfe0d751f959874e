package dev.hexaflow.domain.net;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Which addresses a request that a workflow or a client decides (an http-request node, a file given by URL) may
 * connect to. Reserved addresses ({@link ReservedRange}: loopback, unspecified, link-local, private networks) are
 * refused unless an allow rule names them; everything else is allowed unless a deny rule names it. A deny rule
 * wins over an allow rule, so that what the operator denies stays denied whatever else is allowed. A rule is an
 * address, a CIDR range, a host name, or {@code *.domain} for every name under a domain; a host name rule is
 * matched against the name in the URL, an address rule against every address that name resolves to. An IPv6
 * address that carries an IPv4 address (NAT64, 6to4, Teredo, ISATAP, IPv4-compatible or -translated: {@link
 * Ipv4Embedding}) is judged as itself and as each IPv4 address it carries, and passes only if each would: the
 * decision then names the one refused.
 */
public final class OutboundPolicy {

    /** Nothing allowed beyond the default, nothing denied beyond it. */
    public static final OutboundPolicy DEFAULT = new OutboundPolicy(List.of(), List.of(), List.of());

    private final List<Rule> allow;
    private final List<Rule> deny;
    private final List<Origin> origins;

    /** The server's own address and port: it serves its own API, which its clients reach anyway. */
    private record Origin(IpAddress address, int port) {
    }

    private record Rule(String written, Optional<AddressRange> range, Optional<String> host) {

        static Rule parse(String text) {
            String written = text.strip();
            String literal = written.contains("/") ? written.substring(0, written.indexOf('/')) : written;
            if (IpAddress.isLiteral(literal)) {
                return new Rule(written, Optional.of(AddressRange.parse(written)), Optional.empty());
            }
            String host = written.toLowerCase(Locale.ROOT);
            host = host.endsWith(".") ? host.substring(0, host.length() - 1) : host;
            String name = host.startsWith("*.") ? host.substring(2) : host;
            if (name.isEmpty() || !name.chars().allMatch(c -> Character.isLetterOrDigit(c) || c == '-' || c == '.')
                    || name.startsWith(".") || name.contains("..")) {
                throw new InvalidOutboundRuleException("'" + text.strip()
                        + "' is neither an address, a CIDR range nor a host name");
            }
            return new Rule(written, Optional.empty(), Optional.of(host));
        }

        boolean matches(String host, IpAddress address) {
            if (range.isPresent()) {
                return range.get().contains(address);
            }
            String pattern = this.host.orElseThrow();
            return pattern.startsWith("*.") ? host.endsWith(pattern.substring(1)) : host.equals(pattern);
        }
    }

    private OutboundPolicy(List<Rule> allow, List<Rule> deny, List<Origin> origins) {
        this.allow = List.copyOf(allow);
        this.deny = List.copyOf(deny);
        this.origins = List.copyOf(origins);
    }

    /**
     * The policy of two comma-separated lists of rules; blank lists are empty.
     *
     * @throws InvalidOutboundRuleException naming the first rule that cannot be read
     */
    public static OutboundPolicy of(String allowRules, String denyRules) {
        return new OutboundPolicy(rules(allowRules), rules(denyRules), List.of());
    }

    private static List<Rule> rules(String text) {
        List<Rule> rules = new ArrayList<>();
        for (String entry : (text == null ? "" : text).split(",")) {
            if (!entry.isBlank()) {
                rules.add(Rule.parse(entry));
            }
        }
        return rules;
    }

    /** This policy, also allowing the address and port the server itself answers on (a deny rule still wins). */
    public OutboundPolicy allowingOwnOrigin(IpAddress address, int port) {
        List<Origin> more = new ArrayList<>(origins);
        more.add(new Origin(address, port));
        return new OutboundPolicy(allow, deny, more);
    }

    /**
     * Whether a connection to {@code address} and {@code port}, reached by the URL's {@code host} (a name or a
     * literal), is allowed.
     */
    public OutboundDecision decide(String host, IpAddress address, int port) {
        String name = normalized(host);
        List<IpAddress> faces = faces(address);
        for (Rule rule : deny) {
            for (IpAddress face : faces) {
                if (rule.matches(name, face)) {
                    return new OutboundDecision.Denied(name, face, rule.written());
                }
            }
        }
        for (IpAddress face : faces) {
            Optional<ReservedRange> reserved = ReservedRange.of(face);
            if (reserved.isPresent() && allow.stream().noneMatch(rule -> rule.matches(name, face))
                    && !origins.contains(new Origin(face, port))) {
                return new OutboundDecision.Reserved(name, face, reserved.get());
            }
        }
        return new OutboundDecision.Allowed();
    }

    /**
     * The address and every IPv4 address it carries ({@link Ipv4Embedding}): each is judged as if it were the
     * address connected to, so that a rule about an IPv4 address holds for the IPv6 forms that reach it, and a rule
     * about an IPv6 range cannot open the IPv4 addresses it carries.
     */
    private static List<IpAddress> faces(IpAddress address) {
        List<Ipv4Embedding.Carried> carried = Ipv4Embedding.in(address);
        if (carried.isEmpty()) {
            return List.of(address);
        }
        List<IpAddress> faces = new ArrayList<>(1 + carried.size());
        faces.add(address);
        carried.forEach(one -> faces.add(one.ipv4()));
        return faces;
    }

    private static String normalized(String host) {
        String name = host == null ? "" : host.strip().toLowerCase(Locale.ROOT);
        if (name.startsWith("[") && name.endsWith("]")) {
            name = name.substring(1, name.length() - 1);
        }
        return name.endsWith(".") ? name.substring(0, name.length() - 1) : name;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof OutboundPolicy policy && allow.equals(policy.allow) && deny.equals(policy.deny)
                && origins.equals(policy.origins);
    }

    @Override
    public int hashCode() {
        return java.util.Objects.hash(allow, deny, origins);
    }

    @Override
    public String toString() {
        return "OutboundPolicy[allow=" + allow.stream().map(Rule::written).toList() + ", deny="
                + deny.stream().map(Rule::written).toList() + ", own origins=" + origins + "]";
    }
}
