package dev.hexaflow.adapters.persistence.lucene;

import dev.hexaflow.adapters.persistence.OwnerOnlyFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.apache.lucene.index.IndexFileNames;
import org.apache.lucene.store.FSDirectory;
import org.apache.lucene.store.FilterDirectory;
import org.apache.lucene.store.IOContext;
import org.apache.lucene.store.IndexOutput;
import org.apache.lucene.store.Lock;

/**
 * The index's folder, each file of which Lucene writes (its lock too) is narrowed to the server's user as it is made: the index
 * holds the knowledge bases' text, and Lucene makes its files with the process's umask, long after the data
 * directory was narrowed at start.
 */
final class OwnerOnlyDirectory extends FilterDirectory {

    private final Path folder;
    private final boolean posix;

    private OwnerOnlyDirectory(FSDirectory directory) {
        super(directory);
        this.folder = directory.getDirectory();
        this.posix = folder.getFileSystem().supportedFileAttributeViews().contains("posix");
    }

    /** Opens the folder (made, owner-only, if it is missing) as an index directory. */
    static OwnerOnlyDirectory open(Path folder) throws IOException {
        OwnerOnlyFiles.createFolder(folder);
        OwnerOnlyFiles.tighten(folder);
        return new OwnerOnlyDirectory(FSDirectory.open(folder));
    }

    /** Whether the folder holds no index: missing, or without Lucene's commit file ({@code segments_N}). */
    static boolean holdsNoIndex(Path folder) {
        try (Stream<Path> files = Files.list(folder)) {
            return files.noneMatch(file -> file.getFileName().toString().startsWith(IndexFileNames.SEGMENTS));
        } catch (NoSuchFileException missing) {
            return true;
        } catch (IOException e) {
            return false; // opening it tells what is wrong
        }
    }

    @Override
    public IndexOutput createOutput(String name, IOContext context) throws IOException {
        return narrowed(super.createOutput(name, context));
    }

    @Override
    public IndexOutput createTempOutput(String prefix, String suffix, IOContext context) throws IOException {
        return narrowed(super.createTempOutput(prefix, suffix, context));
    }

    @Override
    public Lock obtainLock(String name) throws IOException {
        Lock lock = super.obtainLock(name);
        narrow(name);
        return lock;
    }

    private IndexOutput narrowed(IndexOutput output) throws IOException {
        narrow(output.getName());
        return output;
    }

    private void narrow(String name) throws IOException {
        if (posix) {
            Files.setPosixFilePermissions(folder.resolve(name), OwnerOnlyFiles.FILE);
        }
    }
}
