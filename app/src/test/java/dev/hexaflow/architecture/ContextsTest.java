package dev.hexaflow.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static dev.hexaflow.architecture.HexaflowClasses.ALL;
import static dev.hexaflow.architecture.HexaflowClasses.APPLICATION;

import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The application is cut by context (apps, runs, files, instances, chat, knowledge, tools, webhooks, backup,
 * campus, triggers, annotations, and common for what they share): a context reaches another only through its use cases and ports, and no
 * two contexts need each other, so that each can be read, tested and changed as a room of its own.
 */
class ContextsTest {

    private static final Pattern CONTEXT = Pattern.compile("dev\\.hexaflow\\.application\\.([a-z]+)(\\..*)?");

    /** The contexts docs/architecture/contexts.md describes; a new one is added there and here. */
    static final List<String> CONTEXTS = List.of("common", "apps", "runs", "files", "instances", "chat", "knowledge",
            "tools", "webhooks", "backup", "campus", "triggers", "mcpserver", "annotations", "limits");

    static final ArchRule every_class_lives_in_a_named_context = classes()
            .that().resideInAPackage(APPLICATION)
            .should().resideInAnyPackage(CONTEXTS.stream().map(c -> "dev.hexaflow.application." + c + "..")
                    .toArray(String[]::new))
            .because("a class outside the named contexts is a grab-bag in the making")
            .allowEmptyShould(false);

    static final ArchRule common_knows_no_context = noClasses()
            .that().resideInAPackage("dev.hexaflow.application.common..")
            .should().dependOnClassesThat().resideInAnyPackage(CONTEXTS.stream().filter(c -> !c.equals("common"))
                    .map(c -> "dev.hexaflow.application." + c + "..").toArray(String[]::new))
            .because("what every context shares cannot depend on one of them")
            .allowEmptyShould(false);

    static final ArchRule contexts_are_free_of_cycles = slices().matching("dev.hexaflow.application.(*)..")
            .should().beFreeOfCycles()
            .because("two contexts that need each other are one room with a wall drawn through it")
            .allowEmptyShould(false);

    static final ArchRule contexts_reach_each_other_through_use_cases_and_ports = classes()
            .that().resideInAPackage(APPLICATION)
            .should(new ArchCondition<JavaClass>("use no other context's services") {
                @Override
                public void check(JavaClass origin, ConditionEvents events) {
                    Optional<String> from = context(origin.getPackageName());
                    for (Dependency dependency : origin.getDirectDependenciesFromSelf()) {
                        String target = dependency.getTargetClass().getPackageName();
                        Optional<String> to = context(target);
                        if (from.isPresent() && to.isPresent() && !from.equals(to) && target.contains(".service")) {
                            events.add(SimpleConditionEvent.violated(dependency, dependency.getDescription()));
                        }
                    }
                }
            })
            .because("a context's services are its own business: another context asks its use cases or ports")
            .allowEmptyShould(false);

    @Test
    void contextsAreFreeOfCycles() {
        HexaflowClasses.assertHoldsClasses(CONTEXTS.stream().map(c -> "dev.hexaflow.application." + c + "..")
                .toArray(String[]::new));
        contexts_are_free_of_cycles.check(ALL);
    }

    @Test
    void everyClassLivesInANamedContext() {
        HexaflowClasses.assertHoldsClasses(APPLICATION);
        every_class_lives_in_a_named_context.check(ALL);
    }

    @Test
    void commonKnowsNoContext() {
        HexaflowClasses.assertHoldsClasses("dev.hexaflow.application.common..");
        common_knows_no_context.check(ALL);
    }

    @Test
    void contextsReachEachOtherThroughUseCasesAndPorts() {
        HexaflowClasses.assertHoldsClasses(APPLICATION, "dev.hexaflow.application..service..");
        contexts_reach_each_other_through_use_cases_and_ports.check(ALL);
    }

    private static Optional<String> context(String packageName) {
        Matcher context = CONTEXT.matcher(packageName);
        return context.matches() ? Optional.of(context.group(1)) : Optional.empty();
    }
}
