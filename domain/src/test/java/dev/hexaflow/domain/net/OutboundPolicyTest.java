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
