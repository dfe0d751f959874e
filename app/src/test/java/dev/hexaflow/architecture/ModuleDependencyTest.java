package dev.hexaflow.architecture;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static dev.hexaflow.architecture.HexaflowClasses.ADAPTERS;
import static dev.hexaflow.architecture.HexaflowClasses.ALL;
import static dev.hexaflow.architecture.HexaflowClasses.APP;
import static dev.hexaflow.architecture.HexaflowClasses.APPLICATION;
import static dev.hexaflow.architecture.HexaflowClasses.DOMAIN;
import static dev.hexaflow.architecture.HexaflowClasses.ENGINE_MODULE;
import static dev.hexaflow.architecture.HexaflowClasses.WORKFLOW_ENGINE;

import com.tngtech.archunit.lang.ArchRule;
import org.junit.jupiter.api.Test;

/** The module graph of ARCHITECTURE.md, kept by a second fence behind Maven's. */
class ModuleDependencyTest {

    static final ArchRule domain_depends_on_the_jdk_only = classes().that().resideInAPackage(DOMAIN)
            .should().onlyDependOnClassesThat().resideInAnyPackage(DOMAIN, "java..")
            .because("the model must be usable and testable with nothing but the JDK")
            .allowEmptyShould(false);

    static final ArchRule application_depends_on_the_domain_only = classes().that().resideInAPackage(APPLICATION)
            .should().onlyDependOnClassesThat().resideInAnyPackage(APPLICATION, WORKFLOW_ENGINE, DOMAIN, "java..")
            .because("use cases and ports speak of the domain and run workflows on the engine; technology stays in "
                    + "adapters")
            .allowEmptyShould(false);

    static final ArchRule no_adapter_depends_on_another = slices().matching("dev.hexaflow.adapters.(*)..")
            .should().notDependOnEachOther()
            .ignoreDependency(resideInAPackage("dev.hexaflow.adapters.clients.."),
                    resideInAPackage("dev.hexaflow.adapters.nodes.."))
            .because("an adapter that needs another's work goes through a port of application, wired by app; the "
                    + "one exception, the clients, call out through the nodes' outbound exchange and model endpoint, "
                    + "so that every outbound request passes the one outbound address policy")
            .allowEmptyShould(false);

    static final ArchRule the_embeddable_engine_takes_no_use_case = noClasses()
            .that().resideInAnyPackage(ENGINE_MODULE, "dev.hexaflow.adapters.dsl..", "dev.hexaflow.adapters.nodes..")
            .should().dependOnClassesThat().resideInAPackage(APPLICATION)
            .because("an embedder receives the engine, its standard adapters and the facade, and none of the "
                    + "server's use cases (apps, runs, chat, knowledge, campus)")
            .allowEmptyShould(false);

    static final ArchRule only_the_app_module_knows_the_composition_root = noClasses()
            .that().resideInAnyPackage(DOMAIN, WORKFLOW_ENGINE, APPLICATION, ADAPTERS, ENGINE_MODULE)
            .should().dependOnClassesThat().resideInAPackage(APP)
            .because("app is the composition root: it knows every module and no module knows it")
            .allowEmptyShould(false);

    static final ArchRule no_core_or_adapter_module_knows_the_embedding_module = noClasses()
            .that().resideInAnyPackage(DOMAIN, WORKFLOW_ENGINE, APPLICATION, ADAPTERS)
            .should().dependOnClassesThat().resideInAPackage(ENGINE_MODULE)
            .because("hexaflow-engine composes adapters for embedders, as app composes them for the server")
            .allowEmptyShould(false);

    static final ArchRule the_embedding_module_composes_only_adapters_that_need_no_server_or_database = classes()
            .that().resideInAPackage(ENGINE_MODULE)
            .should().onlyDependOnClassesThat().resideInAnyPackage(ENGINE_MODULE, DOMAIN, WORKFLOW_ENGINE,
                    "dev.hexaflow.adapters.dsl..", "dev.hexaflow.adapters.nodes..", "java..")
            .because("an embedder gets the engine with its standard adapters and no HTTP server or database")
            .allowEmptyShould(false);

    @Test
    void domainDependsOnTheJdkOnly() {
        HexaflowClasses.assertHoldsClasses(DOMAIN);
        domain_depends_on_the_jdk_only.check(ALL);
    }

    @Test
    void applicationDependsOnTheDomainOnly() {
        HexaflowClasses.assertHoldsClasses(APPLICATION);
        application_depends_on_the_domain_only.check(ALL);
    }

    @Test
    void noAdapterDependsOnAnother() {
        HexaflowClasses.assertHoldsClasses("dev.hexaflow.adapters.http..", "dev.hexaflow.adapters.persistence..",
                "dev.hexaflow.adapters.campus..", "dev.hexaflow.adapters.metrics..", "dev.hexaflow.adapters.traces..");
        no_adapter_depends_on_another.check(ALL);
    }

    @Test
    void theEmbeddableEngineTakesNoUseCase() {
        HexaflowClasses.assertHoldsClasses(ENGINE_MODULE, "dev.hexaflow.adapters.dsl..", "dev.hexaflow.adapters.nodes..",
                APPLICATION);
        the_embeddable_engine_takes_no_use_case.check(ALL);
    }

    @Test
    void onlyTheAppModuleKnowsTheCompositionRoot() {
        HexaflowClasses.assertHoldsClasses(APP, ADAPTERS, ENGINE_MODULE);
        only_the_app_module_knows_the_composition_root.check(ALL);
    }

    @Test
    void noCoreOrAdapterModuleKnowsTheEmbeddingModule() {
        HexaflowClasses.assertHoldsClasses(DOMAIN, APPLICATION, ADAPTERS, ENGINE_MODULE);
        no_core_or_adapter_module_knows_the_embedding_module.check(ALL);
    }

    @Test
    void theEmbeddingModuleComposesOnlyAdaptersThatNeedNoServerOrDatabase() {
        HexaflowClasses.assertHoldsClasses(ENGINE_MODULE, "dev.hexaflow.adapters.dsl..",
                "dev.hexaflow.adapters.nodes..");
        the_embedding_module_composes_only_adapters_that_need_no_server_or_database.check(ALL);
    }
}
