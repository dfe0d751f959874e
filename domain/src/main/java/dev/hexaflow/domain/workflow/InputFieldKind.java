package dev.hexaflow.domain.workflow;

import java.util.Arrays;
import java.util.Optional;
import java.util.stream.Collectors;

/** The kinds of field a start form has, by the {@code type} names of Dify's DSL and /parameters. */
public enum InputFieldKind {
    TEXT_INPUT("text-input"),
    PARAGRAPH("paragraph"),
    SELECT("select"),
    NUMBER("number"),
    CHECKBOX("checkbox"),
    JSON_OBJECT("json_object"),
    FILE("file"),
    FILE_LIST("file-list"),
    EXTERNAL_DATA_TOOL("external_data_tool");

    private final String wireName;

    InputFieldKind(String wireName) {
        this.wireName = wireName;
    }

    public String wireName() {
        return wireName;
    }

    public static Optional<InputFieldKind> fromWireName(String name) {
        return Arrays.stream(values()).filter(kind -> kind.wireName.equals(name)).findFirst();
    }

    /** Every wire name, for messages that say what would have been right. */
    public static String wireNames() {
        return Arrays.stream(values()).map(InputFieldKind::wireName).collect(Collectors.joining(", "));
    }

    /** Text kinds keep an empty default as the empty string; every other kind takes it as no value. */
    public boolean keepsEmptyDefault() {
        return this == TEXT_INPUT || this == PARAGRAPH || this == SELECT;
    }

    public boolean isFile() {
        return this == FILE || this == FILE_LIST;
    }
}
