package dev.hexaflow.workflow.engine;

import dev.hexaflow.domain.workflow.VariableSelector;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/** A node whose data has been read and checked, ready to run any number of times. */
public interface PreparedNode {

    /** Every variable the node reads, for the check that each points at something. */
    List<VariableSelector> references();

    /** The names of the node's outputs, or empty where they are not known before it runs. */
    Optional<Set<String>> outputs();

    /**
     * Runs the node once.
     *
     * @throws NodeFailure (or any exception) when the node fails; the engine applies retry and error strategy
     */
    NodeResult run(NodeContext context) throws Exception;

    /** What a node does each time it runs: {@link #run(NodeContext)} as a function. */
    @FunctionalInterface
    interface Body {
        NodeResult run(NodeContext context) throws Exception;
    }

    /** A prepared node that reads {@code references}, makes {@code outputs} and runs {@code body}. */
    static PreparedNode of(List<VariableSelector> references, Optional<Set<String>> outputs, Body body) {
        return new PreparedNode() {
            @Override
            public List<VariableSelector> references() {
                return references;
            }

            @Override
            public Optional<Set<String>> outputs() {
                return outputs;
            }

            @Override
            public NodeResult run(NodeContext context) throws Exception {
                return body.run(context);
            }
        };
    }
}
