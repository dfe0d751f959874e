package dev.hexaflow.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static dev.hexaflow.architecture.HexaflowClasses.ADAPTERS;
import static dev.hexaflow.architecture.HexaflowClasses.ALL;

import com.tngtech.archunit.lang.ArchRule;
import org.junit.jupiter.api.Test;

/** The boundary between adapters and the application: adapters call use cases, and each port owns its types. */
class BoundaryTest {

    static final String SERVICES = "dev.hexaflow.application..service..";
    static final String INBOUND_PORTS = "dev.hexaflow.application..port.in..";
    static final String OUTBOUND_PORTS = "dev.hexaflow.application..port.out..";
    static final String HTTP_ADAPTER = "dev.hexaflow.adapters.http..";
    static final String ENGINE = "dev.hexaflow.workflow.engine..";
    /** The engine's own outbound ports (template, code, HTTP, model, tools, knowledge retrieval). */
    static final String ENGINE_PORTS = "dev.hexaflow.workflow.port.out..";

    static final ArchRule adapters_use_no_service = noClasses()
            .that().resideInAPackage(ADAPTERS)
            .should().dependOnClassesThat().resideInAPackage(SERVICES)
            .because("an adapter drives the application through its use cases (inbound ports); which service "
                    + "implements one is the composition root's choice alone")
            .allowEmptyShould(false);

    static final ArchRule inbound_ports_use_no_outbound_port_type = noClasses()
            .that().resideInAPackage(INBOUND_PORTS)
            .should().dependOnClassesThat().resideInAnyPackage(OUTBOUND_PORTS, ENGINE_PORTS)
            .because("a use case speaks its own types and the domain's: a change of a repository must not "
                    + "reach the clients of a use case")
            .allowEmptyShould(false);

    static final ArchRule outbound_ports_use_no_inbound_port_type = noClasses()
            .that().resideInAnyPackage(OUTBOUND_PORTS, ENGINE_PORTS)
            .should().dependOnClassesThat().resideInAPackage(INBOUND_PORTS)
            .because("what an adapter plugs into must not change when a use case does")
            .allowEmptyShould(false);

    static final ArchRule the_http_adapter_does_not_reach_into_the_engine = noClasses()
            .that().resideInAPackage(HTTP_ADAPTER)
            .should().dependOnClassesThat().resideInAPackage(ENGINE)
            .because("a run is started, heard and awaited through the run use case's own types, so the engine can "
                    + "change without the wire noticing")
            .allowEmptyShould(false);

    /** The wire formats the application asks of HTTP (a run's events and its detail as Dify writes them). */
    static final String HTTP_WIRE = "dev.hexaflow.adapters.http.wire..";

    static final ArchRule the_http_adapter_uses_outbound_ports_only_in_wire = noClasses()
            .that().resideInAPackage(HTTP_ADAPTER).and().resideOutsideOfPackage(HTTP_WIRE)
            .should().dependOnClassesThat().resideInAnyPackage(OUTBOUND_PORTS, ENGINE_PORTS)
            .because("a driving adapter drives the application through its use cases and has no business with "
                    + "what the application drives (the probes ask the storage check use case); only the wire "
                    + "formats plug into a port, since what Dify's wire looks like is HTTP's knowledge")
            .allowEmptyShould(false);

    /** Where the composition root may implement a port itself: small JDK-backed adapters with no module of their own. */
    static final String APP_ADAPTERS = "dev.hexaflow.app.adapters..";

    static final ArchRule app_implements_ports_only_in_its_adapters = noClasses()
            .that().resideInAPackage(HexaflowClasses.APP).and().resideOutsideOfPackage(APP_ADAPTERS)
            .should().implement(com.tngtech.archunit.base.DescribedPredicate.describe("a port",
                    (com.tngtech.archunit.core.domain.JavaClass c) -> c.getPackageName().contains(".port.out")))
            .because("the command line, the configuration, the wiring and the jobs use adapters; an adapter that "
                    + "app must hold itself lives in app.adapters, where a reader looks for one")
            .allowEmptyShould(false);

    @Test
    void adaptersUseNoService() {
        HexaflowClasses.assertHoldsClasses(ADAPTERS, SERVICES);
        adapters_use_no_service.check(ALL);
    }

    @Test
    void inboundPortsUseNoOutboundPortType() {
        HexaflowClasses.assertHoldsClasses(INBOUND_PORTS, OUTBOUND_PORTS);
        inbound_ports_use_no_outbound_port_type.check(ALL);
    }

    @Test
    void outboundPortsUseNoInboundPortType() {
        HexaflowClasses.assertHoldsClasses(INBOUND_PORTS, OUTBOUND_PORTS);
        outbound_ports_use_no_inbound_port_type.check(ALL);
    }

    @Test
    void theHttpAdapterDoesNotReachIntoTheEngine() {
        HexaflowClasses.assertHoldsClasses(HTTP_ADAPTER, ENGINE);
        the_http_adapter_does_not_reach_into_the_engine.check(ALL);
    }

    @Test
    void theHttpAdapterUsesOutboundPortsOnlyInWire() {
        HexaflowClasses.assertHoldsClasses(HTTP_ADAPTER, HTTP_WIRE, OUTBOUND_PORTS, ENGINE_PORTS);
        the_http_adapter_uses_outbound_ports_only_in_wire.check(ALL);
    }

    @Test
    void appImplementsPortsOnlyInItsAdapters() {
        HexaflowClasses.assertHoldsClasses(HexaflowClasses.APP, APP_ADAPTERS);
        app_implements_ports_only_in_its_adapters.check(ALL);
    }
}
