package dev.hexaflow.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;

/** The production classes of every module, and a guard that a rule's packages are not empty. */
final class HexaflowClasses {

    static final String DOMAIN = "dev.hexaflow.domain..";
    /** The workflow engine (hexaflow-workflow-engine): the graph runner, the nodes and the ports they need. */
    static final String WORKFLOW_ENGINE = "dev.hexaflow.workflow..";
    static final String APPLICATION = "dev.hexaflow.application..";
    static final String ADAPTERS = "dev.hexaflow.adapters..";
    static final String APP = "dev.hexaflow.app..";
    /** The embedding module (hexaflow-engine), a composition of the adapters that need no server or database. */
    static final String ENGINE_MODULE = "dev.hexaflow.engine..";

    static final JavaClasses ALL = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            // Test classes shared as a test-jar (the loopback fakes) come as a jar, which the option above lets in.
            .withImportOption(location -> !location.contains("-tests.jar"))
            .importPackages("dev.hexaflow");

    private HexaflowClasses() {
    }

    /** A rule about an empty package checks nothing: fail instead. */
    static void assertHoldsClasses(String... packages) {
        for (String pkg : packages) {
            assertThat(ALL.that(com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage(pkg)))
                    .as("classes in %s", pkg)
                    .isNotEmpty();
        }
    }
}
