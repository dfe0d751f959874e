package dev.hexaflow.app.config;

import dev.hexaflow.adapters.persistence.OwnerOnlyFiles;
import dev.hexaflow.app.Hexaflow;
import dev.hexaflow.app.StartupException;
import dev.hexaflow.application.common.port.out.SecretGenerator;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Optional;

/**
 * The data directory, held by one process at a time through a lock file when it holds the H2 database, so that a
 * second server (or a command line tool) on the same directory stops with a clear message instead of a database
 * error. Beside a PostgreSQL server it holds files only, and no lock.
 */
public final class DataDirectory implements AutoCloseable {

    public static final String ADMIN_TOKEN_FILE = "admin-token";
    private static final int ADMIN_TOKEN_LENGTH = 40;

    private final Path path;
    private final FileChannel lockChannel;
    private final FileLock lock;

    private DataDirectory(Path path, FileChannel lockChannel, FileLock lock) {
        this.path = path;
        this.lockChannel = lockChannel;
        this.lock = lock;
    }

    /**
     * Creates the directory if need be (its owner's only), narrows what an older start left readable to others,
     * and takes its lock, or says who holds it.
     */
    public static DataDirectory acquire(Path path) {
        try {
            OwnerOnlyFiles.createFolder(path);
        } catch (IOException e) {
            throw new StartupException("Cannot create the data directory " + path + ": " + e.getMessage(), e);
        }
        FileChannel channel = null;
        try {
            Path lockFile = path.resolve(".lock");
            channel = FileChannel.open(lockFile, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
            FileLock lock = channel.tryLock();
            if (lock == null) {
                throw inUse(path);
            }
            DataDirectory directory = new DataDirectory(path, channel, lock);
            directory.keepPrivate();
            return directory;
        } catch (OverlappingFileLockException e) {
            closeQuietly(channel);
            throw inUse(path);
        } catch (IOException e) {
            closeQuietly(channel);
            throw new StartupException("Cannot lock the data directory " + path + ": " + e.getMessage(), e);
        } catch (StartupException e) {
            closeQuietly(channel);
            throw e;
        }
    }

    /**
     * Creates the directory if need be (its owner's only) without taking its lock: for a server whose database is
     * a PostgreSQL server, where the directory holds files only and H2's one-process rule does not apply.
     */
    public static DataDirectory open(Path path) {
        try {
            OwnerOnlyFiles.createFolder(path);
        } catch (IOException e) {
            throw new StartupException("Cannot create the data directory " + path + ": " + e.getMessage(), e);
        }
        DataDirectory directory = new DataDirectory(path, null, null);
        directory.keepPrivate();
        return directory;
    }

    private static StartupException inUse(Path path) {
        return new StartupException("The data directory " + path + " is in use by another Hexaflow process. "
                + "Stop it, or choose another directory with --data-dir.");
    }

    Path path() {
        return path;
    }

    /**
     * Narrows the directory, its folders and files to their owner (0700 and 0600): what a start before this rule
     * made, and what H2 makes with the process's umask. The directory's own 0700 already keeps other users out
     * of everything in it.
     */
    public void keepPrivate() {
        try {
            OwnerOnlyFiles.tighten(path);
        } catch (IOException e) {
            throw new StartupException("Cannot make the data directory " + path + " private to its owner: "
                    + e.getMessage(), e);
        }
    }

    /**
     * The admin token kept in the data dir, made on the first call: readable by its owner only. Answers the
     * token and whether it was made now.
     */
    public AdminToken adminToken(SecretGenerator secrets) {
        Path file = path.resolve(ADMIN_TOKEN_FILE);
        try {
            Optional<String> kept = keptAdminToken();
            if (kept.isPresent()) {
                return new AdminToken(kept.get(), false);
            }
            String token = newAdminToken(secrets);
            Files.deleteIfExists(file);
            try (OutputStream out = OwnerOnlyFiles.createFile(file)) {
                out.write((token + "\n").getBytes(StandardCharsets.UTF_8));
            }
            return new AdminToken(token, true);
        } catch (IOException e) {
            throw new StartupException("Cannot keep the admin token in " + file + ": " + e.getMessage(), e);
        }
    }

    /** The admin token kept in the data dir, if one is. */
    public Optional<String> keptAdminToken() {
        Path file = path.resolve(ADMIN_TOKEN_FILE);
        try {
            return Files.exists(file)
                    ? Optional.of(Files.readString(file, StandardCharsets.UTF_8).trim()).filter(t -> !t.isEmpty())
                    : Optional.empty();
        } catch (IOException e) {
            throw new StartupException("Cannot read the admin token in " + file + ": " + e.getMessage(), e);
        }
    }

    /** A new admin token: {@code hfa-} and 40 random characters. */
    public static String newAdminToken(SecretGenerator secrets) {
        return "hfa-" + secrets.newSecret(ADMIN_TOKEN_LENGTH);
    }

    public record AdminToken(String value, boolean madeNow) {
    }

    @Override
    public void close() {
        if (lock == null) {
            return;
        }
        try {
            lock.release();
        } catch (IOException e) {
            // The lock goes with the channel anyway.
        }
        closeQuietly(lockChannel);
    }

    private static void closeQuietly(FileChannel channel) {
        if (channel != null) {
            try {
                channel.close();
            } catch (IOException e) {
                // Nothing to do: the process is giving the directory up.
            }
        }
    }
}
