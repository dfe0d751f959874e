package dev.hexaflow.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static dev.hexaflow.architecture.HexaflowClasses.ADAPTERS;
import static dev.hexaflow.architecture.HexaflowClasses.ALL;

import com.tngtech.archunit.lang.ArchRule;
import org.junit.jupiter.api.Test;

/** Port, use case, service and adapter names follow STYLE.md, so a reader finds each by its name. */
class NamingConventionTest {

    static final String INBOUND_PORTS = "dev.hexaflow.application..port.in..";
    static final String OUTBOUND_PORTS = "dev.hexaflow.application..port.out..";
    static final String SERVICES = "dev.hexaflow.application..service..";

    static final ArchRule inbound_port_interfaces_are_named_use_case = classes()
            .that().resideInAPackage(INBOUND_PORTS).and().areInterfaces().and().areTopLevelClasses()
            .should().haveSimpleNameEndingWith("UseCase")
            .because("one XxxUseCase interface per use case")
            .allowEmptyShould(false);

    static final ArchRule use_cases_are_implemented_by_services = classes()
            .that().implement(com.tngtech.archunit.base.DescribedPredicate.describe("a use case",
                    (com.tngtech.archunit.core.domain.JavaClass c) -> c.getSimpleName().endsWith("UseCase")))
            .should().haveSimpleNameEndingWith("Service").andShould().resideInAPackage(SERVICES)
            .because("the implementation of XxxUseCase is XxxService, in application")
            .allowEmptyShould(false);

    static final ArchRule services_are_final = classes()
            .that().resideInAPackage(SERVICES).and().areTopLevelClasses()
            .should().haveModifier(com.tngtech.archunit.core.domain.JavaModifier.FINAL)
            .because("services are composed by the root, not extended")
            .allowEmptyShould(false);

    static final ArchRule outbound_ports_are_implemented_only_in_adapters_or_app = classes()
            .that().implement(com.tngtech.archunit.base.DescribedPredicate.describe("an outbound port",
                    (com.tngtech.archunit.core.domain.JavaClass c) -> c.getPackageName().contains(".port.out")))
            .and().resideOutsideOfPackage("dev.hexaflow.application..")
            .should().resideInAnyPackage(ADAPTERS, "dev.hexaflow.app.adapters..")
            .because("an outbound port is what an adapter plugs into")
            .allowEmptyShould(false);

    /**
     * The application hosts the engine, so it may plug its use cases into the engine's ports (knowledge retrieval,
     * other apps as tools); and one context may plug into another's port (webhooks hear of a finished run). A
     * context never implements its own outbound port: that would be an adapter hiding in the application.
     */
    static final ArchRule the_application_implements_only_the_engines_ports_or_another_contexts = classes()
            .that().resideInAPackage("dev.hexaflow.application..")
            .should(new com.tngtech.archunit.lang.ArchCondition<com.tngtech.archunit.core.domain.JavaClass>(
                    "implement no outbound port of its own context") {
                @Override
                public void check(com.tngtech.archunit.core.domain.JavaClass origin,
                        com.tngtech.archunit.lang.ConditionEvents events) {
                    for (com.tngtech.archunit.core.domain.JavaClass port : origin.getAllRawInterfaces()) {
                        String pkg = port.getPackageName();
                        if (pkg.startsWith("dev.hexaflow.application.") && pkg.contains(".port.out")
                                && context(pkg).equals(context(origin.getPackageName()))) {
                            events.add(com.tngtech.archunit.lang.SimpleConditionEvent.violated(origin,
                                    origin.getName() + " implements its own context's port " + port.getName()));
                        }
                    }
                }
            })
            .because("an outbound port is what an adapter, the engine's host or another context plugs into")
            .allowEmptyShould(false);

    private static String context(String packageName) {
        return packageName.replaceFirst("^dev\\.hexaflow\\.application\\.([a-z]+).*$", "$1");
    }

    /** The technologies an adapter's name may start with. */
    static final String TECHNOLOGY = "(Jdbi|InMemory|FileSystem|H2|Jackson|Biweekly|Yaml|Jinjava|GraalJs|PythonWorker"
            + "|Jdk|Hmac|SecureRandom|OpenAiCompatible|JinaCompatible|Smtp|PdfBox|Poi|Javalin|Zip|JsonPath|Jsoup|McpSdk"
            + "|CronUtils|Lucene|Postgres|Micrometer|Slf4j|OpenTelemetry).*";

    static final ArchRule adapters_are_named_for_their_technology = classes()
            .that().implement(com.tngtech.archunit.base.DescribedPredicate.describe("an outbound port",
                    (com.tngtech.archunit.core.domain.JavaClass c) -> c.getPackageName().contains(".port.out")))
            .and().areTopLevelClasses().and().resideInAnyPackage(ADAPTERS, "dev.hexaflow.app.adapters..")
            .should().haveNameMatching(".*\\." + TECHNOLOGY)
            .because("adapters are named <Technology><Port>, so a reader sees what each one plugs in")
            .allowEmptyShould(false);

    @Test
    void inboundPortInterfacesAreNamedUseCase() {
        HexaflowClasses.assertHoldsClasses(INBOUND_PORTS);
        inbound_port_interfaces_are_named_use_case.check(ALL);
    }

    @Test
    void useCasesAreImplementedByServices() {
        HexaflowClasses.assertHoldsClasses(SERVICES);
        use_cases_are_implemented_by_services.check(ALL);
    }

    @Test
    void servicesAreFinal() {
        HexaflowClasses.assertHoldsClasses(SERVICES);
        services_are_final.check(ALL);
    }

    @Test
    void outboundPortsAreImplementedOnlyInAdaptersOrApp() {
        HexaflowClasses.assertHoldsClasses(OUTBOUND_PORTS, ADAPTERS);
        outbound_ports_are_implemented_only_in_adapters_or_app.check(ALL);
    }

    @Test
    void theApplicationImplementsOnlyTheEnginesPortsOrAnotherContexts() {
        HexaflowClasses.assertHoldsClasses("dev.hexaflow.application..");
        the_application_implements_only_the_engines_ports_or_another_contexts.check(ALL);
    }

    @Test
    void adaptersAreNamedForTheirTechnology() {
        HexaflowClasses.assertHoldsClasses("dev.hexaflow.adapters.persistence.jdbi..",
                "dev.hexaflow.adapters.persistence.memory..", "dev.hexaflow.adapters.nodes..",
                "dev.hexaflow.adapters.campus..", "dev.hexaflow.adapters.dsl..", "dev.hexaflow.adapters.metrics..",
                "dev.hexaflow.adapters.traces..");
        adapters_are_named_for_their_technology.check(ALL);
    }
}
