package dev.hexaflow.domain.backup;

import java.util.regex.Pattern;

/**
 * One file of a backup: its name inside the archive (which is also its path under the data directory), its size
 * and the SHA-256 of its bytes. Only the names a data directory holds are accepted, so that a restore can never be
 * led to write outside the directory it was given.
 *
 * @param sha256 64 lower-case hex digits
 */
public record BackupEntry(String name, long size, String sha256) {

    public static final String DATABASE = "hexaflow.mv.db";
    public static final String ADMIN_TOKEN = "admin-token";
    public static final String BLOB_FOLDER = "files/";

    private static final Pattern NAME = Pattern.compile("hexaflow\\.mv\\.db|admin-token|files/[0-9a-f]{32}");
    private static final Pattern SHA256 = Pattern.compile("[0-9a-f]{64}");

    public BackupEntry {
        if (name == null || !NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("name: not a file a data directory holds: " + name);
        }
        if (size < 0) {
            throw new IllegalArgumentException("size: must not be negative, was " + size);
        }
        if (sha256 == null || !SHA256.matcher(sha256).matches()) {
            throw new IllegalArgumentException("sha256: must be 64 lower-case hex digits");
        }
    }

    /** Whether a name is one a backup may hold. */
    public static boolean isDataFile(String name) {
        return name != null && NAME.matcher(name).matches();
    }

    /** The entry of an uploaded file's blob. */
    public static String blob(String key) {
        return BLOB_FOLDER + key;
    }
}
