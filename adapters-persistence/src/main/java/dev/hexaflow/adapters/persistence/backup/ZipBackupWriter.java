package dev.hexaflow.adapters.persistence.backup;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.hexaflow.application.backup.port.out.BackupArchive;
import dev.hexaflow.domain.backup.BackupEntry;
import dev.hexaflow.domain.backup.BackupManifest;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.security.DigestOutputStream;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.Map;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;

/**
 * A backup being written: each file as an entry, counted and hashed as it goes, and the manifest (every entry with
 * its size and SHA-256) last, so that an archive cut off before its end has none.
 */
final class ZipBackupWriter implements BackupArchive.Writer {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final ZipOutputStream zip;

    ZipBackupWriter(ZipOutputStream zip) {
        this.zip = zip;
    }

    @Override
    public BackupEntry add(String name, BackupArchive.Content content) {
        try {
            zip.putNextEntry(new ZipEntry(name));
            MessageDigest sha = ZipBackupArchive.sha256();
            long[] size = new long[1];
            OutputStream entry = new DigestOutputStream(new FilterOutputStream(zip) {
                @Override
                public void write(int b) throws IOException {
                    out.write(b);
                    size[0]++;
                }

                @Override
                public void write(byte[] b, int off, int len) throws IOException {
                    out.write(b, off, len);
                    size[0] += len;
                }

                @Override
                public void close() {
                    // Ending the entry is the archive's business.
                }
            }, sha);
            content.writeTo(entry);
            entry.flush();
            zip.closeEntry();
            return new BackupEntry(name, size[0], HexFormat.of().formatHex(sha.digest()));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + name + " to the backup", e);
        }
    }

    @Override
    public void finish(BackupManifest manifest) {
        try {
            zip.putNextEntry(new ZipEntry(BackupManifest.FILE_NAME));
            zip.write(JSON.writerWithDefaultPrettyPrinter().writeValueAsBytes(toJson(manifest)));
            zip.closeEntry();
            zip.finish();
            zip.flush();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot end the backup", e);
        }
    }

    private static ObjectNode toJson(BackupManifest manifest) {
        ObjectNode node = JSON.createObjectNode();
        node.put("format", ZipBackupArchive.FORMAT);
        node.put("format_version", manifest.formatVersion());
        node.put("hexaflow_version", manifest.hexaflowVersion());
        node.put("schema_version", manifest.schemaVersion());
        node.put("created_at", manifest.createdAt());
        ObjectNode counts = node.putObject("counts");
        manifest.counts().entrySet().stream().sorted(Map.Entry.comparingByKey())
                .forEach(count -> counts.put(count.getKey(), count.getValue()));
        ArrayNode entries = node.putArray("entries");
        for (BackupEntry entry : manifest.entries()) {
            entries.addObject().put("name", entry.name()).put("size", entry.size()).put("sha256", entry.sha256());
        }
        return node;
    }
}
