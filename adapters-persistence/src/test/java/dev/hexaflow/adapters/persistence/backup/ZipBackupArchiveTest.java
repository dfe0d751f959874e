package dev.hexaflow.adapters.persistence.backup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.hexaflow.adapters.persistence.backup.ZipBombs.Entry;
import dev.hexaflow.application.backup.port.out.BackupArchive;
import dev.hexaflow.domain.backup.BackupEntry;
import dev.hexaflow.domain.backup.BackupManifest;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Reading and unpacking a backup archive never goes past what it may: each file stops at the size its manifest
 * lists, the archive as a whole at a bound set by its own size, and the files must fit where they go, whatever the
 * zip's own headers say. Each bound is met by an archive made to pass it.
 */
class ZipBackupArchiveTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String BLOB = BackupEntry.blob("0123456789abcdef0123456789abcdef");

    @TempDir
    Path work;

    @Test
    void aWholeArchiveIsReadAndUnpackedAsItsManifestListsIt() throws Exception {
        byte[] database = "a database".getBytes(StandardCharsets.UTF_8);
        byte[] blob = "a file".getBytes(StandardCharsets.UTF_8);
        Path zip = archive(Map.of(BackupEntry.DATABASE, database, BLOB, blob), Map.of());
        ZipBackupArchive archive = new ZipBackupArchive();

        BackupArchive.Read read = archive.read(zip);
        archive.extract(zip, read.manifest(), work.resolve("restored"));

        assertThat(read.found().get(BLOB).size()).isEqualTo(blob.length);
        assertThat(Files.readAllBytes(work.resolve("restored").resolve(BLOB))).isEqualTo(blob);
        BackupEntry listed = read.manifest().entries().stream()
                .filter(entry -> entry.name().equals(BackupEntry.DATABASE)).findFirst().orElseThrow();
        try (InputStream in = archive.open(zip, listed)) {
            assertThat(in.readAllBytes()).isEqualTo(database);
        }
    }

    @Test
    void anEntryThatUnpacksPastTheSizeItsManifestListsStopsOneByteAfterIt() throws Exception {
        Path zip = work.resolve("lying.zip");
        // The manifest says 1000 bytes; the entry holds 20 MB of zeros (20 kB deflated: no ratio is passed).
        ZipBombs.write(zip, Entry.zeros(BackupEntry.DATABASE, 20),
                Entry.of(BackupManifest.FILE_NAME, manifest(Map.of(BackupEntry.DATABASE, new Listing(1000,
                        "0".repeat(64))))));

        assertThatThrownBy(() -> new ZipBackupArchive().read(zip))
                .isInstanceOf(BackupArchive.UnreadableArchiveException.class)
                .hasMessageContaining("hexaflow.mv.db unpacks to more than the 1000 bytes its manifest lists");
    }

    @Test
    void anArchiveThatUnpacksPastItsRatioIsRefusedWhileUnpackingWithNothingWritten() throws Exception {
        Path zip = work.resolve("bomb.zip");
        long twoGigabytes = 2048L << 20;
        // The manifest tells the truth (2 GB of zeros and their SHA-256): only the ratio can stop it.
        ZipBombs.write(zip, Entry.zeros(BackupEntry.DATABASE, 2048), Entry.of(BackupManifest.FILE_NAME,
                manifest(Map.of(BackupEntry.DATABASE, new Listing(twoGigabytes, ZEROS_2_GB_SHA256)))));
        assertThat(Files.size(zip)).isLessThan(3 << 20);
        // 10 times its size and 16 MB past it: the defaults' 100 times and 64 MB take longer to reach, not otherwise.
        ZipBackupArchive archive = new ZipBackupArchive(new ZipBackupArchive.Limits(10, 16 << 20, 10, 0));
        long began = System.nanoTime();

        assertThatThrownBy(() -> archive.read(zip)).isInstanceOf(BackupArchive.UnreadableArchiveException.class)
                .hasMessageContaining("it unpacks to more than").hasMessageContaining("10 times its own");
        assertThatThrownBy(() -> {
            try (InputStream in = archive.open(zip, new BackupEntry(BackupEntry.DATABASE, twoGigabytes,
                    ZEROS_2_GB_SHA256))) {
                in.transferTo(OutputStream.nullOutputStream());
            }
        }).hasMessageContaining("it unpacks to more than");
        BackupManifest manifest = new BackupManifest(1, "0.1.0", 1, 1, Map.of(), List.of(new BackupEntry(
                BackupEntry.DATABASE, twoGigabytes, ZEROS_2_GB_SHA256)));
        Path target = work.resolve("restored");
        assertThatThrownBy(() -> archive.extract(zip, manifest, target))
                .isInstanceOf(BackupArchive.UnreadableArchiveException.class)
                .hasMessageContaining("it unpacks to more than");

        assertThat(System.nanoTime() - began).as("three refusals, each after some 40 MB of zeros")
                .isLessThan(10_000_000_000L);
        assertThat(target).as("what it began to write is removed").doesNotExist();
    }

    @Test
    void anArchiveWithMoreEntriesThanTheBoundIsRefusedBeforeAnyIsRead() throws Exception {
        Map<String, byte[]> files = new LinkedHashMap<>();
        for (int i = 0; i < 5; i++) {
            files.put(BackupEntry.blob(String.format("%032x", i)), new byte[] {(byte) i});
        }
        Path zip = archive(files, Map.of());
        ZipBackupArchive archive = new ZipBackupArchive(new ZipBackupArchive.Limits(100, 1 << 20, 4, 0));

        assertThatThrownBy(() -> archive.read(zip)).hasMessageContaining("it holds 7 entries, more than the 4");
    }

    @Test
    void filesThatWouldLeaveTooLittleRoomAreRefusedBeforeAnythingIsWritten() throws Exception {
        Path zip = archive(Map.of(BackupEntry.DATABASE, new byte[100]), Map.of());
        long free = Files.getFileStore(work).getUsableSpace();
        ZipBackupArchive archive = new ZipBackupArchive(new ZipBackupArchive.Limits(100, 1 << 20, 10, free));
        BackupManifest manifest = archive.read(zip).manifest();
        Path target = work.resolve("restored");

        assertThatThrownBy(() -> archive.extract(zip, manifest, target))
                .isInstanceOf(BackupArchive.NoRoomException.class).hasMessageContaining("must stay free");
        assertThat(target).doesNotExist();
    }

    @Test
    void anEntryOutsideTheDataDirectoryOrNotInTheManifestIsRefusedUnread() throws Exception {
        byte[] database = "a database".getBytes(StandardCharsets.UTF_8);
        for (String name : List.of("../outside", "/etc/passwd", "files/../../x", "files\\..\\x")) {
            Path zip = work.resolve("escaping.zip");
            ZipBombs.write(zip, Entry.of(BackupEntry.DATABASE, database), Entry.of(name, new byte[] {1}),
                    Entry.of(BackupManifest.FILE_NAME, manifest(Map.of(BackupEntry.DATABASE, listing(database)))));

            assertThatThrownBy(() -> new ZipBackupArchive().read(zip)).as(name)
                    .hasMessageContaining("which is no file of a Hexaflow data directory");
        }
        Path unlisted = archive(Map.of(BackupEntry.DATABASE, database), Map.of(BLOB, new byte[] {1}));
        assertThatThrownBy(() -> new ZipBackupArchive().read(unlisted))
                .hasMessageContaining(BLOB + " is in the archive but not in its manifest");
        assertThat(work.resolve("outside")).doesNotExist();
    }

    @Test
    void anArchiveChangedAfterItWasReadFailsTheUnpackingAndLeavesNothing() throws Exception {
        byte[] database = "a database".getBytes(StandardCharsets.UTF_8);
        Path zip = archive(Map.of(BackupEntry.DATABASE, database), Map.of());
        ZipBackupArchive archive = new ZipBackupArchive();
        BackupManifest manifest = archive.read(zip).manifest();
        byte[] other = "a datahase".getBytes(StandardCharsets.UTF_8);
        ZipBombs.write(zip, Entry.of(BackupEntry.DATABASE, other), Entry.of(BackupManifest.FILE_NAME,
                manifest(Map.of(BackupEntry.DATABASE, listing(database)))));
        Path target = work.resolve("restored");

        assertThatThrownBy(() -> archive.extract(zip, manifest, target)).hasMessageContaining("no longer matches");
        assertThat(target).doesNotExist();
        try (Stream<Path> files = Files.list(work)) {
            assertThat(files.map(path -> path.getFileName().toString())).containsExactly("archive.zip");
        }
    }

    /** The SHA-256 of 2 GB (2^31 bytes) of zeros. */
    static final String ZEROS_2_GB_SHA256 = "a7c744c13cc101ed66c29f672f92455547889cc586ce6d44fe76ae824958ea51";

    record Listing(long size, String sha256) {
    }

    static Listing listing(byte[] bytes) throws Exception {
        return new Listing(bytes.length, HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes)));
    }

    /** A manifest listing {@code files} as given, whatever they hold. */
    static byte[] manifest(Map<String, Listing> files) throws IOException {
        ObjectNode manifest = JSON.createObjectNode().put("format", ZipBackupArchive.FORMAT).put("format_version", 1)
                .put("hexaflow_version", "0.1.0").put("schema_version", 1).put("created_at", 1);
        manifest.putObject("counts");
        ArrayNode entries = manifest.putArray("entries");
        files.forEach((name, listing) -> entries.addObject().put("name", name).put("size", listing.size())
                .put("sha256", listing.sha256()));
        return JSON.writeValueAsBytes(manifest);
    }

    /** An archive of {@code listed} (in the manifest, truthfully) and {@code unlisted}, manifest last. */
    private Path archive(Map<String, byte[]> listed, Map<String, byte[]> unlisted) throws Exception {
        Map<String, Listing> listings = new LinkedHashMap<>();
        Map<String, byte[]> entries = new LinkedHashMap<>(listed);
        for (Map.Entry<String, byte[]> file : listed.entrySet()) {
            listings.put(file.getKey(), listing(file.getValue()));
        }
        if (!listings.containsKey(BackupEntry.DATABASE)) {
            byte[] database = "a database".getBytes(StandardCharsets.UTF_8);
            entries.put(BackupEntry.DATABASE, database);
            listings.put(BackupEntry.DATABASE, listing(database));
        }
        entries.putAll(unlisted);
        entries.put(BackupManifest.FILE_NAME, manifest(listings));
        Path zip = work.resolve("archive.zip");
        ZipBombs.write(zip, entries);
        return zip;
    }
}
