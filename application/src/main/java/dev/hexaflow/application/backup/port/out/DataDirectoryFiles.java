package dev.hexaflow.application.backup.port.out;

import java.io.InputStream;
import java.util.Optional;

/** The live data directory's files besides the database, read by their names in a backup. */
public interface DataDirectoryFiles {

    /** The file's bytes, or empty when it is not there. */
    Optional<InputStream> open(String name);
}
