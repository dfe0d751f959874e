package dev.hexaflow.adapters.persistence;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;

/**
 * Folders (0700) and files (0600) that only the server's own user may read: the data directory holds the
 * database with every run's inputs and outputs, the admin token and the uploads. On a file system without POSIX
 * permissions (Windows) the calls make the folders and files as they would be made anyway.
 */
public final class OwnerOnlyFiles {

    public static final Set<PosixFilePermission> FOLDER = PosixFilePermissions.fromString("rwx------");
    public static final Set<PosixFilePermission> FILE = PosixFilePermissions.fromString("rw-------");

    private OwnerOnlyFiles() {
    }

    /** Makes the folder (and missing parents) if need be, and narrows the folder itself to its owner. */
    public static void createFolder(Path folder) throws IOException {
        if (!posix(folder.toAbsolutePath().getRoot())) {
            Files.createDirectories(folder);
            return;
        }
        Files.createDirectories(folder, PosixFilePermissions.asFileAttribute(FOLDER));
        Files.setPosixFilePermissions(folder, FOLDER);
    }

    /** A new file, readable by its owner only from the moment it exists; fails if it exists. */
    public static OutputStream createFile(Path file) throws IOException {
        Set<StandardOpenOption> options = Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
        FileAttribute<?>[] attributes = posix(file.toAbsolutePath().getParent())
                ? new FileAttribute<?>[] {PosixFilePermissions.asFileAttribute(FILE)}
                : new FileAttribute<?>[0];
        return Channels.newOutputStream(Files.newByteChannel(file, options, attributes));
    }

    /**
     * Narrows every folder and file under {@code root} (root included) to its owner: for a data directory made
     * before these permissions were, and for files another library made with its own (H2's database). Links
     * are neither followed nor changed.
     */
    public static void tighten(Path root) throws IOException {
        if (!posix(root)) {
            return;
        }
        Files.walkFileTree(root, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) throws IOException {
                Files.setPosixFilePermissions(dir, FOLDER);
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                if (attrs.isRegularFile()) {
                    Files.setPosixFilePermissions(file, FILE);
                }
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFileFailed(Path file, IOException e) {
                // A file gone between listing and visiting (a finished upload's temporary file) needs nothing.
                return FileVisitResult.CONTINUE;
            }
        });
    }

    private static boolean posix(Path path) {
        return path != null && path.getFileSystem().supportedFileAttributeViews().contains("posix");
    }
}
