package dev.hexaflow.adapters.persistence.backup;

import dev.hexaflow.domain.backup.BackupEntry;
import java.io.IOException;
import java.io.InputStream;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.zip.ZipFile;

/**
 * A listed file's bytes, checked against its listing at their end: a short file, or one whose checksum differs
 * (the archive changed since it was read), fails the read instead of ending it.
 */
final class CheckedEntry extends java.io.FilterInputStream {

    /** Closed with the stream, or null when its owner closes it. */
    private final ZipFile zip;
    private final BackupEntry listed;
    private final MessageDigest sha = ZipBackupArchive.sha256();
    private long size;
    private boolean checked;

    CheckedEntry(ZipFile zip, InputStream in, BackupEntry listed) {
        super(in);
        this.zip = zip;
        this.listed = listed;
    }

    @Override
    public int read() throws IOException {
        byte[] one = new byte[1];
        int n = read(one, 0, 1);
        return n < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        int n = in.read(b, off, len);
        if (n > 0) {
            sha.update(b, off, n);
            size += n;
        } else if (n < 0 && !checked) {
            checked = true;
            if (size != listed.size() || !HexFormat.of().formatHex(sha.digest()).equals(listed.sha256())) {
                throw new IOException(listed.name() + " no longer matches its checksum: the archive changed "
                        + "while it was read");
            }
        }
        return n;
    }

    @Override
    public long skip(long n) throws IOException {
        throw new IOException("a checked entry is read whole");
    }

    @Override
    public void close() throws IOException {
        try {
            super.close();
        } finally {
            if (zip != null) {
                zip.close();
            }
        }
    }
}
