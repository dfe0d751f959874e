package dev.hexaflow.domain.campus;

import java.time.LocalDate;

/** A university holiday; the same name can occur on several dates. */
public record Holiday(String name, LocalDate date) implements CampusRecord {
}
