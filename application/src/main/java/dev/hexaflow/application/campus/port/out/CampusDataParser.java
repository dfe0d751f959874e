package dev.hexaflow.application.campus.port.out;

import dev.hexaflow.domain.campus.CampusRecord;
import dev.hexaflow.domain.campus.DataFileFormat;
import dev.hexaflow.domain.campus.FeedMethod;
import dev.hexaflow.domain.campus.InvalidCampusDataException;
import java.util.List;

/** Reads a campus data file into records, refusing the whole file at its first fault. */
public interface CampusDataParser {

    /**
     * Parses every record of the file.
     *
     * @throws InvalidCampusDataException naming the line and field of the first fault
     */
    List<CampusRecord> parse(FeedMethod dataSet, DataFileFormat format, byte[] content);
}
