package dev.hexaflow.application.campus.port.in;

import dev.hexaflow.domain.campus.DataFileFormat;
import dev.hexaflow.domain.campus.FeedMethod;

/**
 * A data file to replace one campus data set with.
 *
 * @param onlyIfEmpty leave a data set that has records alone (the first-start load)
 */
public record ImportCampusDataCommand(FeedMethod dataSet, DataFileFormat format, byte[] content, boolean onlyIfEmpty) {

    public ImportCampusDataCommand {
        if (dataSet == null) {
            throw new IllegalArgumentException("dataSet must not be null");
        }
        if (format == null) {
            throw new IllegalArgumentException("format must not be null");
        }
        if (content == null) {
            throw new IllegalArgumentException("content must not be null");
        }
    }

    public static ImportCampusDataCommand replace(FeedMethod dataSet, DataFileFormat format, byte[] content) {
        return new ImportCampusDataCommand(dataSet, format, content, false);
    }
}
