package dev.hexaflow.adapters.nodes.tool.convert;

import dev.hexaflow.domain.workflow.FileValue;
import dev.hexaflow.workflow.engine.StopSignal;
import dev.hexaflow.workflow.port.out.FileContents;
import dev.hexaflow.workflow.port.out.ToolRunner.ToolException;
import java.util.List;
import java.util.Optional;

/** A tool's file parameter: the file a variable gave (the first of a list), read within the tool's bound. */
final class ToolFiles {

    private final FileContents files;
    private final ConversionLimits limits;

    ToolFiles(FileContents files, ConversionLimits limits) {
        this.files = files;
        this.limits = limits;
    }

    /** The file's value, or empty when the parameter is not given. */
    static Optional<FileValue> fileOf(String name, Object value) {
        if (value == null || value instanceof String s && s.isBlank()) {
            return Optional.empty();
        }
        if (value instanceof List<?> list && !list.isEmpty()) {
            value = list.get(0);
        }
        if (value instanceof FileValue file) {
            return Optional.of(file);
        }
        if (FileValue.isFileMap(value)) {
            return Optional.of(FileValue.fromMap((java.util.Map<?, ?>) value));
        }
        throw new ToolException("The parameter " + name + " must be a file");
    }

    byte[] read(String name, FileValue file, StopSignal stop) {
        if (file.size() > limits.maxInputBytes()) {
            throw new ConversionLimits.Exceeded("The file " + name + " has " + file.size() + " bytes, more than the "
                    + limits.maxInputBytes() + " this tool reads");
        }
        try {
            return limits.file(name, files.read(file, stop));
        } catch (FileContents.FileException e) {
            throw new ToolException("The file " + name + " could not be read: " + e.getMessage(), e);
        }
    }
}
