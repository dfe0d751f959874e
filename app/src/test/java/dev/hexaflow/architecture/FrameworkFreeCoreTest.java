package dev.hexaflow.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static dev.hexaflow.architecture.HexaflowClasses.ALL;
import static dev.hexaflow.architecture.HexaflowClasses.APPLICATION;
import static dev.hexaflow.architecture.HexaflowClasses.WORKFLOW_ENGINE;
import static dev.hexaflow.architecture.HexaflowClasses.DOMAIN;

import com.tngtech.archunit.lang.ArchRule;
import org.junit.jupiter.api.Test;

/** The core (domain and application) is free of every framework the adapters use. */
class FrameworkFreeCoreTest {

    static final ArchRule the_core_uses_no_web_storage_or_format_framework = noClasses()
            .that().resideInAnyPackage(DOMAIN, WORKFLOW_ENGINE, APPLICATION)
            .should().dependOnClassesThat().resideInAnyPackage(
                    "io.javalin..", "org.eclipse.jetty..", "jakarta.servlet..",
                    "org.jdbi..", "org.h2..", "org.flywaydb..", "java.sql..",
                    "com.fasterxml.jackson..", "biweekly..", "org.slf4j..", "io.opentelemetry..")
            .because("Javalin, Jdbi, H2, Jackson, biweekly and OpenTelemetry are choices of adapters that may change; "
                    + "the core must not notice (the module rules allow the JDK, and so JDBC: this one does not)")
            .allowEmptyShould(false);

    @Test
    void theCoreUsesNoWebStorageOrFormatFramework() {
        HexaflowClasses.assertHoldsClasses(DOMAIN, WORKFLOW_ENGINE, APPLICATION);
        the_core_uses_no_web_storage_or_format_framework.check(ALL);
    }
}
