package dev.hexaflow.domain.campus;

/** A campus printer. */
public record Printer(String printer, String ad, String server, String comment, String driver, String room,
        String faculty) implements CampusRecord {
}
