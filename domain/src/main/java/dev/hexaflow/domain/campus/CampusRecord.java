package dev.hexaflow.domain.campus;

/** One record of a campus feed method. Any field may be null, as the feed allows. */
public sealed interface CampusRecord permits Tutor, Printer, Holiday {
}
