package dev.hexaflow.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static dev.hexaflow.architecture.HexaflowClasses.ALL;
import static dev.hexaflow.architecture.HexaflowClasses.WORKFLOW_ENGINE;

import com.tngtech.archunit.lang.ArchRule;
import org.junit.jupiter.api.Test;

/**
 * The workflow engine (graph runner, nodes and the ports they need) stands on the domain alone, so that it can be
 * embedded without any use case of apps, chat, knowledge or campus; Maven's module graph (hexaflow-workflow-engine
 * depends on hexaflow-domain alone) is the first fence, this the second.
 */
class EngineIndependenceTest {

    static final ArchRule the_engine_depends_on_the_domain_alone = classes()
            .that().resideInAPackage(WORKFLOW_ENGINE)
            .should().onlyDependOnClassesThat().resideInAnyPackage(WORKFLOW_ENGINE, HexaflowClasses.DOMAIN, "java..")
            .because("what a node needs of the rest of the server (knowledge bases, tools, files) it asks through a "
                    + "port the engine owns, in its own words; the server plugs its contexts in from outside")
            .allowEmptyShould(false);

    @Test
    void theEngineDependsOnTheDomainAlone() {
        HexaflowClasses.assertHoldsClasses(WORKFLOW_ENGINE);
        the_engine_depends_on_the_domain_alone.check(ALL);
    }
}
