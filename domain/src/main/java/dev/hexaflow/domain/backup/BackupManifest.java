package dev.hexaflow.domain.backup;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What a backup says of itself: its format, the Hexaflow and database schema that made it, how many rows each table
 * held in the snapshot, and every file it holds with its checksum. A restore trusts the files only as far as they
 * match this.
 *
 * @param formatVersion   the layout of the archive; {@link #FORMAT_VERSION} for this one
 * @param schemaVersion   the database schema's migration number at the snapshot
 * @param createdAt       Unix seconds
 * @param counts          rows by table name, as the snapshot held them
 */
public record BackupManifest(int formatVersion, String hexaflowVersion, int schemaVersion, long createdAt,
        Map<String, Long> counts, List<BackupEntry> entries) {

    public static final int FORMAT_VERSION = 1;
    /** The manifest's own entry in the archive: not listed in {@link #entries()}, as it cannot hold its own sum. */
    public static final String FILE_NAME = "manifest.json";

    public BackupManifest {
        if (formatVersion < 1) {
            throw new IllegalArgumentException("format_version: must be 1 or more, was " + formatVersion);
        }
        if (hexaflowVersion == null || hexaflowVersion.isBlank()) {
            throw new IllegalArgumentException("hexaflow_version: missing");
        }
        if (schemaVersion < 1) {
            throw new IllegalArgumentException("schema_version: must be 1 or more, was " + schemaVersion);
        }
        if (counts == null || entries == null) {
            throw new IllegalArgumentException("counts and entries: missing");
        }
        counts = Map.copyOf(new TreeMap<>(counts));
        entries = List.copyOf(entries);
        if (entries.stream().map(BackupEntry::name).distinct().count() != entries.size()) {
            throw new IllegalArgumentException("entries: a name is listed twice");
        }
        if (entries.stream().noneMatch(entry -> entry.name().equals(BackupEntry.DATABASE))) {
            throw new IllegalArgumentException("entries: the database " + BackupEntry.DATABASE + " is missing");
        }
    }
}
