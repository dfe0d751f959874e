package dev.hexaflow.application.campus.port.in;

import dev.hexaflow.domain.campus.InvalidCampusDataException;

/** Replaces a campus data set from a file, whole or not at all. */
public interface ImportCampusDataUseCase {

    /**
     * Answers how many records the data set now holds from this file, or -1 when it was left alone because
     * {@code onlyIfEmpty} was set and it had records.
     *
     * @throws InvalidCampusDataException naming the line and field at fault; the old data stays
     * @throws dev.hexaflow.domain.campus.DataSetTooLargeException over the bounds it names; the old data stays
     */
    int importData(ImportCampusDataCommand command);
}
