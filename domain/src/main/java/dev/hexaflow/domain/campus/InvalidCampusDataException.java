package dev.hexaflow.domain.campus;

/** A campus data file that cannot be taken whole, with the line and field at fault. */
public class InvalidCampusDataException extends RuntimeException {

    private final int line;
    private final String field;

    public InvalidCampusDataException(int line, String field, String problem) {
        super(describe(line, field, problem));
        this.line = line;
        this.field = field;
    }

    private static String describe(int line, String field, String problem) {
        StringBuilder text = new StringBuilder();
        if (line > 0) {
            text.append("line ").append(line);
        }
        if (field != null) {
            text.append(text.length() > 0 ? ", " : "").append("field ").append(field);
        }
        return text.length() > 0 ? text.append(": ").append(problem).toString() : problem;
    }

    /** The 1-based line of the file at fault, or 0 where the fault is the whole file. */
    public int line() {
        return line;
    }

    /** The field at fault, or null where the fault is the whole line or file. */
    public String field() {
        return field;
    }
}
