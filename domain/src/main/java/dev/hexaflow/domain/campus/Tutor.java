package dev.hexaflow.domain.campus;

/** A course for which tutors are available. */
public record Tutor(String subject, String catalogNumber, String title, Integer tutorsCount, String contactUrl)
        implements CampusRecord {

    public Tutor {
        if (tutorsCount != null && tutorsCount < 0) {
            throw new IllegalArgumentException("tutors_count must not be negative, was " + tutorsCount);
        }
    }
}
