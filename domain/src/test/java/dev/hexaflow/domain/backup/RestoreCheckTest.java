package dev.hexaflow.domain.backup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RestoreCheckTest {

    private static final String SUM_A = "a".repeat(64);
    private static final String SUM_B = "b".repeat(64);
    private static final BackupEntry DB = new BackupEntry(BackupEntry.DATABASE, 100, SUM_A);
    private static final BackupEntry BLOB = new BackupEntry(BackupEntry.blob("0123456789abcdef0123456789abcdef"), 5,
            SUM_B);

    private static BackupManifest manifest(int format, int schema) {
        return new BackupManifest(format, "0.1.0", schema, 1, Map.of("app", 2L), List.of(DB, BLOB));
    }

    private static String refusal(RestoreCheck check) {
        assertThat(check).isInstanceOf(RestoreCheck.Refused.class);
        return ((RestoreCheck.Refused) check).reason();
    }

    @Test
    void aManifestWhoseFilesAllMatchIsAcceptedAndAnOlderSchemaToo() {
        Map<String, BackupEntry> found = Map.of(DB.name(), DB, BLOB.name(), BLOB);

        assertThat(RestoreCheck.files(manifest(1, 5), found, 5)).isInstanceOf(RestoreCheck.Accepted.class);
        assertThat(RestoreCheck.files(manifest(1, 3), found, 5)).isInstanceOf(RestoreCheck.Accepted.class);
    }

    @Test
    void anotherFormatANewerSchemaAMissingExtraOrChangedFileIsRefusedByName() {
        Map<String, BackupEntry> found = Map.of(DB.name(), DB, BLOB.name(), BLOB);
        BackupEntry changed = new BackupEntry(BLOB.name(), 5, SUM_A);

        assertThat(refusal(RestoreCheck.files(manifest(2, 5), found, 5))).contains("format 2");
        assertThat(refusal(RestoreCheck.files(manifest(1, 6), found, 5))).contains("schema 6", "newer");
        assertThat(refusal(RestoreCheck.files(manifest(1, 5), Map.of(DB.name(), DB), 5)))
                .contains(BLOB.name(), "missing");
        assertThat(refusal(RestoreCheck.files(manifest(1, 5), Map.of(DB.name(), DB, BLOB.name(), changed), 5)))
                .contains(BLOB.name(), "checksum");
        BackupEntry token = new BackupEntry(BackupEntry.ADMIN_TOKEN, 3, SUM_A);
        assertThat(refusal(RestoreCheck.files(manifest(1, 5), Map.of(DB.name(), DB, BLOB.name(), BLOB,
                token.name(), token), 5))).contains("admin-token", "not in its manifest");
    }

    @Test
    void rowCountsThatDifferFromTheManifestAreRefused() {
        assertThat(RestoreCheck.counts(manifest(1, 5), Map.of("app", 2L))).isInstanceOf(RestoreCheck.Accepted.class);
        assertThat(refusal(RestoreCheck.counts(manifest(1, 5), Map.of("app", 3L)))).contains("3 rows in app");
        assertThat(refusal(RestoreCheck.counts(manifest(1, 5), Map.of()))).contains("no table app");
    }

    @Test
    void anEntryNameOutsideADataDirectoryIsRefusedAtOnce() {
        for (String name : List.of("../etc/passwd", "/tmp/x", "files/../../x", "files/ABC", "hexaflow.trace.db")) {
            assertThatThrownBy(() -> new BackupEntry(name, 1, SUM_A)).as(name)
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("name");
        }
        assertThatThrownBy(() -> new BackupManifest(1, "0.1.0", 5, 1, Map.of(), List.of(BLOB)))
                .hasMessageContaining("database");
    }
}
