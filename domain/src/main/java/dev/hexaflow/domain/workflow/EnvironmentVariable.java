package dev.hexaflow.domain.workflow;

/** A workflow's environment variable, read as {@code env.NAME}; value_type is string, number or secret. */
public record EnvironmentVariable(String id, String name, Object value, String valueType, String description) {

    public EnvironmentVariable {
        if (name == null || name.isEmpty()) {
            throw new IllegalArgumentException("an environment variable needs a name");
        }
        valueType = valueType == null ? "string" : valueType;
        description = description == null ? "" : description;
    }
}
