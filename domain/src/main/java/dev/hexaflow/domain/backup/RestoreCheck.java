package dev.hexaflow.domain.backup;

import java.util.Map;
import java.util.Objects;

/**
 * Whether a backup may be restored: the policy a restore applies before it writes anything. Each step answers
 * {@link Accepted} or a {@link Refused} with the one line an operator reads.
 */
public sealed interface RestoreCheck {

    /** The backup may go on to the next step. */
    record Accepted() implements RestoreCheck {
    }

    /** The backup must not be restored, for this reason. */
    record Refused(String reason) implements RestoreCheck {
        public Refused {
            Objects.requireNonNull(reason, "reason");
        }
    }

    /**
     * The archive's files against its manifest: a format this build reads, a schema no newer than this build's (an
     * older one is migrated at start), and exactly the files listed, each of its size and checksum.
     *
     * @param found         every file in the archive but the manifest, by name, as read now
     * @param newestSchema  the newest schema version this build knows
     */
    static RestoreCheck files(BackupManifest manifest, Map<String, BackupEntry> found, int newestSchema) {
        if (manifest.formatVersion() != BackupManifest.FORMAT_VERSION) {
            return new Refused("it is backup format " + manifest.formatVersion() + "; this Hexaflow reads format "
                    + BackupManifest.FORMAT_VERSION);
        }
        if (manifest.schemaVersion() > newestSchema) {
            return new Refused("it was made by Hexaflow " + manifest.hexaflowVersion() + " with database schema "
                    + manifest.schemaVersion() + ", newer than this Hexaflow's " + newestSchema
                    + "; restore it with that version or a later one");
        }
        for (BackupEntry listed : manifest.entries()) {
            BackupEntry actual = found.get(listed.name());
            if (actual == null) {
                return new Refused(listed.name() + " is listed in the manifest but missing");
            }
            if (actual.size() != listed.size() || !actual.sha256().equals(listed.sha256())) {
                return new Refused(listed.name() + " does not match its checksum: the file is damaged");
            }
        }
        for (String name : found.keySet()) {
            if (manifest.entries().stream().noneMatch(entry -> entry.name().equals(name))) {
                return new Refused(name + " is in the archive but not in its manifest");
            }
        }
        return new Accepted();
    }

    /** The snapshot's row counts against the manifest's: a database that is whole but not the one described. */
    static RestoreCheck counts(BackupManifest manifest, Map<String, Long> actual) {
        for (Map.Entry<String, Long> expected : manifest.counts().entrySet()) {
            Long count = actual.get(expected.getKey());
            if (!expected.getValue().equals(count)) {
                return new Refused("the database holds " + (count == null ? "no table " : count + " rows in ")
                        + expected.getKey() + " where the manifest says " + expected.getValue());
            }
        }
        return new Accepted();
    }
}
