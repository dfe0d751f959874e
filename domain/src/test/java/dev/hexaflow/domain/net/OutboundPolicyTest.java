package dev.hexaflow.domain.net;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class OutboundPolicyTest {

    private static IpAddress ip(String text) {
        return IpAddress.parse(text);
    }

    @Test
    void addressLiteralsOfEveryFormReadAsTheirBytesAndMappedOnesAsIpv4() {
        assertThat(ip("127.0.0.1").bytes()).containsExactly(127, 0, 0, 1);
        assertThat(ip("::ffff:127.0.0.1")).isEqualTo(ip("127.0.0.1"));
        assertThat(ip("[::ffff:7f00:1]")).isEqualTo(ip("127.0.0.1"));
        assertThat(ip("::1").toString()).isEqualTo("::1");
        assertThat(ip("fe80::1%eth0").toString()).isEqualTo("fe80::1");
        assertThat(ip("2001:db8:0:0:1:0:0:1").toString()).isEqualTo("2001:db8::1:0:0:1");
        assertThat(ip("0:0:0:0:0:0:0:0").toString()).isEqualTo("::");
        for (String bad : new String[] {"256.0.0.1", "1.2.3", "1:2:3:4:5:6:7:8:9", "1::2::3", "x::1", "", "12345::"}) {
            assertThat(IpAddress.isLiteral(bad)).as(bad).isFalse();
        }
    }

    @Test
    void aRangeHoldsTheAddressesOfItsPrefixOfItsOwnFamilyOnly() {
        AddressRange ten = AddressRange.parse("10.0.0.0/8");
        assertThat(ten.contains(ip("10.255.1.2"))).isTrue();
        assertThat(ten.contains(ip("11.0.0.0"))).isFalse();
        assertThat(AddressRange.parse("172.16.0.0/12").contains(ip("172.31.255.255"))).isTrue();
        assertThat(AddressRange.parse("172.16.0.0/12").contains(ip("172.32.0.0"))).isFalse();
        assertThat(AddressRange.parse("fe80::/10").contains(ip("febf::1"))).isTrue();
        assertThat(AddressRange.parse("fe80::/10").contains(ip("fec0::1"))).isFalse();
        assertThat(AddressRange.parse("::ffff:127.0.0.0/104")).isEqualTo(AddressRange.parse("127.0.0.0/8"));
        assertThat(AddressRange.parse("0.0.0.0/0").contains(ip("::1"))).isFalse();
        assertThatThrownBy(() -> AddressRange.parse("10.0.0.0/33")).isInstanceOf(InvalidOutboundRuleException.class)
                .hasMessageContaining("0 to 32");
    }

    @Test
    void theDefaultRefusesLoopbackUnspecifiedLinkLocalAndPrivateAddressesAndAllowsTheRest() {
        OutboundPolicy policy = OutboundPolicy.DEFAULT;
        assertThat(policy.decide("x", ip("127.0.0.1"), 80)).isEqualTo(
                new OutboundDecision.Reserved("x", ip("127.0.0.1"), ReservedRange.LOOPBACK));
        assertThat(kind(policy, "::1")).isEqualTo(ReservedRange.LOOPBACK);
        assertThat(kind(policy, "::ffff:127.0.0.1")).isEqualTo(ReservedRange.LOOPBACK);
        assertThat(kind(policy, "0.0.0.0")).isEqualTo(ReservedRange.UNSPECIFIED);
        assertThat(kind(policy, "::")).isEqualTo(ReservedRange.UNSPECIFIED);
        assertThat(kind(policy, "169.254.169.254")).isEqualTo(ReservedRange.LINK_LOCAL);
        assertThat(kind(policy, "fe80::1")).isEqualTo(ReservedRange.LINK_LOCAL);
        assertThat(kind(policy, "::ffff:169.254.169.254")).isEqualTo(ReservedRange.LINK_LOCAL);
        assertThat(kind(policy, "10.1.2.3")).isEqualTo(ReservedRange.PRIVATE);
        assertThat(kind(policy, "192.168.0.1")).isEqualTo(ReservedRange.PRIVATE);
        assertThat(kind(policy, "100.100.100.200")).isEqualTo(ReservedRange.PRIVATE);
        assertThat(kind(policy, "fd00::1")).isEqualTo(ReservedRange.PRIVATE);
        assertThat(policy.decide("example.com", ip("93.184.216.34"), 443)).isEqualTo(new OutboundDecision.Allowed());
        assertThat(policy.decide("x", ip("2606:4700::1111"), 443)).isEqualTo(new OutboundDecision.Allowed());
    }

    private static ReservedRange kind(OutboundPolicy policy, String address) {
        return ((OutboundDecision.Reserved) policy.decide("h", ip(address), 80)).kind();
    }

    @Test
    void everyIpv6FormThatEmbedsAnIpv4AddressIsJudgedByTheIpv4AddressItEmbeds() {
        OutboundPolicy policy = OutboundPolicy.DEFAULT;
        // NAT64's well-known prefix (RFC 6052), the IPv4 address in the last 32 bits.
        assertThat(refused(policy, "64:ff9b::7f00:1")).isEqualTo(reserved("127.0.0.1", ReservedRange.LOOPBACK));
        assertThat(refused(policy, "64:ff9b::127.0.0.1")).isEqualTo(reserved("127.0.0.1", ReservedRange.LOOPBACK));
        assertThat(refused(policy, "64:ff9b::a00:1")).isEqualTo(reserved("10.0.0.1", ReservedRange.PRIVATE));
        assertThat(refused(policy, "64:ff9b::a9fe:a9fe"))
                .isEqualTo(reserved("169.254.169.254", ReservedRange.LINK_LOCAL));
        assertThat(refused(policy, "64:ff9b::0.0.0.0")).isEqualTo(reserved("0.0.0.0", ReservedRange.UNSPECIFIED));
        // 6to4 (RFC 3056), the IPv4 address in bits 16 to 47, whatever the subnet and interface bits.
        assertThat(refused(policy, "2002:7f00:1::")).isEqualTo(reserved("127.0.0.1", ReservedRange.LOOPBACK));
        assertThat(refused(policy, "2002:a9fe:a9fe:1::5"))
                .isEqualTo(reserved("169.254.169.254", ReservedRange.LINK_LOCAL));
        assertThat(refused(policy, "2002:c0a8:101::1")).isEqualTo(reserved("192.168.1.1", ReservedRange.PRIVATE));
        // IPv4-compatible (deprecated, RFC 4291), the last 32 bits.
        assertThat(refused(policy, "::127.0.0.1")).isEqualTo(reserved("127.0.0.1", ReservedRange.LOOPBACK));
        assertThat(refused(policy, "::a00:1")).isEqualTo(reserved("10.0.0.1", ReservedRange.PRIVATE));
        assertThat(refused(policy, "::169.254.169.254"))
                .isEqualTo(reserved("169.254.169.254", ReservedRange.LINK_LOCAL));
        // IPv4-mapped (the IPv4 address itself) and IPv4-translated (RFC 2765), the last 32 bits.
        assertThat(refused(policy, "::ffff:7f00:1")).isEqualTo(reserved("127.0.0.1", ReservedRange.LOOPBACK));
        assertThat(refused(policy, "::ffff:0:127.0.0.1")).isEqualTo(reserved("127.0.0.1", ReservedRange.LOOPBACK));
        assertThat(refused(policy, "::ffff:0:a00:1")).isEqualTo(reserved("10.0.0.1", ReservedRange.PRIVATE));
        // Teredo (RFC 4380): the server's IPv4 address in bits 32 to 63, the client's in the last 32, inverted.
        assertThat(refused(policy, "2001:0:7f00:1::")).isEqualTo(reserved("127.0.0.1", ReservedRange.LOOPBACK));
        assertThat(refused(policy, "2001:0:4136:e378:8000:63bf:80ff:fffe"))
                .isEqualTo(reserved("127.0.0.1", ReservedRange.LOOPBACK));
        assertThat(refused(policy, "2001:0:4136:e378:8000:63bf:f5ff:fffe"))
                .isEqualTo(reserved("10.0.0.1", ReservedRange.PRIVATE));
        assertThat(refused(policy, "2001:0:4136:e378:8000:63bf:5601:5601"))
                .isEqualTo(reserved("169.254.169.254", ReservedRange.LINK_LOCAL));
        // ISATAP (RFC 5214): an interface identifier of 0:5efe or 200:5efe, the IPv4 address in the last 32 bits.
        assertThat(refused(policy, "2001:db8::5efe:127.0.0.1"))
                .isEqualTo(reserved("127.0.0.1", ReservedRange.LOOPBACK));
        assertThat(refused(policy, "2001:db8:1:2:200:5efe:a00:1"))
                .isEqualTo(reserved("10.0.0.1", ReservedRange.PRIVATE));
        // The local-use NAT64 prefix (RFC 8215) is closed whole: where its IPv4 address sits depends on the
        // prefix length its network chose, which an address does not tell.
        assertThat(refused(policy, "64:ff9b:1::7f00:1"))
                .isEqualTo(reserved("64:ff9b:1::7f00:1", ReservedRange.PRIVATE));
        assertThat(refused(policy, "64:ff9b:1:5db8:d8:2200::"))
                .isEqualTo(reserved("64:ff9b:1:5db8:d8:2200::", ReservedRange.PRIVATE));
    }

    @Test
    void anIpv6AddressThatEmbedsAPublicIpv4AddressIsAllowedAndTheIpv6OnesOwnKindsStay() {
        OutboundPolicy policy = OutboundPolicy.DEFAULT;
        for (String open : new String[] {"64:ff9b::5db8:d822", "2002:5db8:d822::1", "::93.184.216.34",
                "::ffff:0:93.184.216.34", "2001:0:4136:e378:8000:63bf:a247:27dd", "2001:db8::5efe:93.184.216.34",
                "2001:db8::1"}) {
            assertThat(policy.decide("h", ip(open), 80)).as(open).isEqualTo(new OutboundDecision.Allowed());
        }
        assertThat(refused(policy, "::1")).isEqualTo(reserved("::1", ReservedRange.LOOPBACK));
        assertThat(refused(policy, "::")).isEqualTo(reserved("::", ReservedRange.UNSPECIFIED));
        assertThat(OutboundPolicy.of("::1", "").decide("h", ip("::1"), 80)).isEqualTo(new OutboundDecision.Allowed());
    }

    @Test
    void anIpv4RuleAppliesToTheFormsThatEmbedItAndAnIpv6RuleCannotOpenTheIpv4AddressesItsRangeEmbeds() {
        OutboundPolicy allows = OutboundPolicy.of("127.0.0.1", "");
        for (String embedded : new String[] {"64:ff9b::7f00:1", "2002:7f00:1::", "::127.0.0.1", "::ffff:0:7f00:1",
                "2001:0:4136:e378:8000:63bf:80ff:fffe", "2001:db8::5efe:7f00:1"}) {
            assertThat(allows.decide("h", ip(embedded), 80)).as(embedded).isEqualTo(new OutboundDecision.Allowed());
        }
        assertThat(refused(allows, "64:ff9b::7f00:2")).isEqualTo(reserved("127.0.0.2", ReservedRange.LOOPBACK));

        OutboundPolicy denies = OutboundPolicy.of("", "93.184.216.0/24");
        assertThat(denies.decide("h", ip("64:ff9b::5db8:d822"), 80))
                .isEqualTo(new OutboundDecision.Denied("h", ip("93.184.216.34"), "93.184.216.0/24"));
        assertThat(denies.decide("h", ip("2001:0:4136:e378:8000:63bf:a247:27dd"), 80))
                .isInstanceOf(OutboundDecision.Denied.class);

        OutboundPolicy allowsTheNat64Prefix = OutboundPolicy.of("64:ff9b::/96, 2002::/16", "");
        assertThat(refused(allowsTheNat64Prefix, "64:ff9b::7f00:1"))
                .isEqualTo(reserved("127.0.0.1", ReservedRange.LOOPBACK));
        assertThat(refused(allowsTheNat64Prefix, "2002:a00:1::"))
                .isEqualTo(reserved("10.0.0.1", ReservedRange.PRIVATE));
        assertThat(OutboundPolicy.of("", "2002::/16").decide("h", ip("2002:5db8:d822::1"), 80))
                .isInstanceOf(OutboundDecision.Denied.class);
        assertThat(OutboundPolicy.of("64:ff9b:1::/48", "").decide("h", ip("64:ff9b:1::7f00:1"), 80))
                .isEqualTo(new OutboundDecision.Allowed());
    }

    @Test
    void theServersOwnOriginIsOpenInTheFormsThatEmbedItToo() {
        OutboundPolicy own = OutboundPolicy.DEFAULT.allowingOwnOrigin(ip("127.0.0.1"), 8080);
        assertThat(own.decide("h", ip("64:ff9b::7f00:1"), 8080)).isEqualTo(new OutboundDecision.Allowed());
        assertThat(own.decide("h", ip("64:ff9b::7f00:1"), 6379)).isInstanceOf(OutboundDecision.Reserved.class);
    }

    private static OutboundDecision refused(OutboundPolicy policy, String address) {
        return policy.decide("h", ip(address), 80);
    }

    private static OutboundDecision reserved(String face, ReservedRange kind) {
        return new OutboundDecision.Reserved("h", ip(face), kind);
    }

    @Test
    void anAllowRuleOpensAReservedAddressByAddressRangeOrHostName() {
        OutboundPolicy policy = OutboundPolicy.of("127.0.0.1, 10.1.0.0/16, api.internal, *.corp.example", "");
        assertThat(policy.decide("x", ip("127.0.0.1"), 1)).isEqualTo(new OutboundDecision.Allowed());
        assertThat(policy.decide("x", ip("127.0.0.2"), 1)).isInstanceOf(OutboundDecision.Reserved.class);
        assertThat(policy.decide("x", ip("10.1.9.9"), 1)).isEqualTo(new OutboundDecision.Allowed());
        assertThat(policy.decide("x", ip("10.2.0.1"), 1)).isInstanceOf(OutboundDecision.Reserved.class);
        assertThat(policy.decide("API.internal.", ip("10.9.9.9"), 1)).isEqualTo(new OutboundDecision.Allowed());
        assertThat(policy.decide("a.corp.example", ip("192.168.1.1"), 1)).isEqualTo(new OutboundDecision.Allowed());
        assertThat(policy.decide("corp.example.evil", ip("192.168.1.1"), 1))
                .isInstanceOf(OutboundDecision.Reserved.class);
    }

    @Test
    void aDenyRuleWinsOverAnAllowRuleAndClosesPublicAddressesToo() {
        OutboundPolicy policy = OutboundPolicy.of("10.0.0.0/8", "10.0.0.5, metadata.example, 203.0.113.0/24");
        assertThat(policy.decide("x", ip("10.0.0.6"), 1)).isEqualTo(new OutboundDecision.Allowed());
        assertThat(policy.decide("x", ip("10.0.0.5"), 1))
                .isEqualTo(new OutboundDecision.Denied("x", ip("10.0.0.5"), "10.0.0.5"));
        assertThat(policy.decide("metadata.example", ip("10.0.0.7"), 1)).isInstanceOf(OutboundDecision.Denied.class);
        assertThat(policy.decide("x", ip("203.0.113.9"), 1)).isInstanceOf(OutboundDecision.Denied.class);
    }

    @Test
    void theServersOwnOriginIsAllowedOnItsPortOnlyAndADenyRuleStillWins() {
        OutboundPolicy own = OutboundPolicy.DEFAULT.allowingOwnOrigin(ip("127.0.0.1"), 8080);
        assertThat(own.decide("127.0.0.1", ip("127.0.0.1"), 8080)).isEqualTo(new OutboundDecision.Allowed());
        assertThat(own.decide("127.0.0.1", ip("127.0.0.1"), 6379)).isInstanceOf(OutboundDecision.Reserved.class);
        OutboundPolicy denied = OutboundPolicy.of("", "127.0.0.0/8").allowingOwnOrigin(ip("127.0.0.1"), 8080);
        assertThat(denied.decide("x", ip("127.0.0.1"), 8080)).isInstanceOf(OutboundDecision.Denied.class);
    }

    @Test
    void aRuleThatIsNeitherAnAddressARangeNorAHostNameIsRefusedByName() {
        assertThatThrownBy(() -> OutboundPolicy.of("10.0.0.0/8, http://x/", ""))
                .isInstanceOf(InvalidOutboundRuleException.class).hasMessageContaining("'http://x/'");
        assertThatThrownBy(() -> OutboundPolicy.of("", "10.0.0.0/x")).isInstanceOf(InvalidOutboundRuleException.class);
    }
}
