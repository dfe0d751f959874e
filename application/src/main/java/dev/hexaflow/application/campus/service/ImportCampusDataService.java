package dev.hexaflow.application.campus.service;

import dev.hexaflow.application.campus.port.in.ImportCampusDataCommand;
import dev.hexaflow.application.campus.port.in.ImportCampusDataUseCase;
import dev.hexaflow.application.campus.port.out.CampusDataParser;
import dev.hexaflow.application.campus.port.out.CampusDataRepository;
import dev.hexaflow.domain.campus.CampusRecord;
import dev.hexaflow.domain.campus.DataSetTooLargeException;
import java.util.List;

/**
 * Parses the whole file before touching the store, so a bad file changes nothing; a file or data set over the
 * bounds of {@link DataSetTooLargeException} is refused before it is parsed or after, unkept.
 */
public final class ImportCampusDataService implements ImportCampusDataUseCase {

    private final CampusDataParser parser;
    private final CampusDataRepository data;

    public ImportCampusDataService(CampusDataParser parser, CampusDataRepository data) {
        this.parser = parser;
        this.data = data;
    }

    @Override
    public int importData(ImportCampusDataCommand command) {
        if (command.onlyIfEmpty() && data.count(command.dataSet()) > 0) {
            return -1;
        }
        DataSetTooLargeException.checkBytes(command.content().length);
        List<CampusRecord> records = parser.parse(command.dataSet(), command.format(), command.content());
        DataSetTooLargeException.checkRecords(records.size());
        data.replaceAll(command.dataSet(), records);
        return records.size();
    }
}
