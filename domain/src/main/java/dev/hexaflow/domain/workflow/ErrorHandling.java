package dev.hexaflow.domain.workflow;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * A node's error strategy with the default outputs it declares, read once from its data ({@code error_strategy},
 * {@code default_value}); says which edges a success or a failure takes and what a handled failure outputs.
 */
public record ErrorHandling(ErrorStrategy strategy, Map<String, Object> defaultValues) {

    /** The source handle of the edges a handled failure takes under {@link ErrorStrategy#FAIL_BRANCH}. */
    public static final String FAIL_BRANCH_HANDLE = "fail-branch";
    /** The source handle of the edges a success takes under {@link ErrorStrategy#FAIL_BRANCH}. */
    public static final String SUCCESS_BRANCH_HANDLE = "success-branch";
    /** What a node whose failure is handled adds to its outputs. */
    public static final Set<String> ERROR_OUTPUTS = Set.of("error_message", "error_type");

    public static final ErrorHandling NONE = new ErrorHandling(ErrorStrategy.NONE, Map.of());

    public ErrorHandling {
        if (strategy == null) {
            throw new IllegalArgumentException("an error handling needs its strategy");
        }
        defaultValues = defaultValues == null ? Map.of() : java.util.Collections.unmodifiableMap(
                new LinkedHashMap<>(defaultValues));
    }

    /**
     * Reads a node's {@code error_strategy} and {@code default_value} list ({@code {key, type, value}} items).
     *
     * @throws InvalidNodeDataException when the strategy is not one Dify knows, naming the field
     */
    public static ErrorHandling of(DataTree data) {
        String name = data.optionalString("error_strategy").orElse("");
        ErrorStrategy strategy = ErrorStrategy.fromWireName(name).orElseThrow(() -> new InvalidNodeDataException(
                "error_strategy", "'" + name + "' is not an error strategy (fail-branch, default-value or none)"));
        if (strategy == ErrorStrategy.NONE) {
            return NONE;
        }
        Map<String, Object> defaults = new LinkedHashMap<>();
        for (DataTree item : data.trees("default_value")) {
            String key = item.string("key", "");
            if (!key.isEmpty()) {
                defaults.put(key, Values.normalize(item.get("value")));
            }
        }
        return new ErrorHandling(strategy, strategy == ErrorStrategy.DEFAULT_VALUE ? defaults : Map.of());
    }

    /** Whether a failure of the node is turned into an exception the run goes on from. */
    public boolean handlesErrors() {
        return strategy != ErrorStrategy.NONE;
    }

    /** The handle a successful run takes, given the one the node chose. */
    public String successHandle(String chosen) {
        return strategy == ErrorStrategy.FAIL_BRANCH ? SUCCESS_BRANCH_HANDLE : chosen;
    }

    /** The handle a handled failure takes. */
    public String failureHandle() {
        return strategy == ErrorStrategy.FAIL_BRANCH ? FAIL_BRANCH_HANDLE : Edge.DEFAULT_HANDLE;
    }

    /** The outputs of a handled failure: the default values, then the error's message and type. */
    public Map<String, Object> failureOutputs(String message, String type) {
        Map<String, Object> outputs = new LinkedHashMap<>(defaultValues);
        outputs.put("error_message", message);
        outputs.put("error_type", type);
        return outputs;
    }
}
