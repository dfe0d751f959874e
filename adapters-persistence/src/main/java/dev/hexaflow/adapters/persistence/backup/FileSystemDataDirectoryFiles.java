package dev.hexaflow.adapters.persistence.backup;

import dev.hexaflow.application.backup.port.out.DataDirectoryFiles;
import dev.hexaflow.domain.backup.BackupEntry;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Optional;

/** The data directory's files under their backup names; the database itself is copied by its own snapshot. */
public final class FileSystemDataDirectoryFiles implements DataDirectoryFiles {

    private final Path dataDir;

    public FileSystemDataDirectoryFiles(Path dataDir) {
        this.dataDir = dataDir;
    }

    @Override
    public Optional<InputStream> open(String name) {
        if (!BackupEntry.isDataFile(name) || name.equals(BackupEntry.DATABASE)) {
            throw new IllegalArgumentException("not a data file to copy: " + name);
        }
        try {
            return Optional.of(Files.newInputStream(dataDir.resolve(name)));
        } catch (NoSuchFileException e) {
            return Optional.empty();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + name, e);
        }
    }
}
