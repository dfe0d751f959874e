package dev.hexaflow.adapters.campus.parse;

import dev.hexaflow.application.campus.port.out.CampusDataParser;
import dev.hexaflow.domain.campus.CampusRecord;
import dev.hexaflow.domain.campus.DataFileFormat;
import dev.hexaflow.domain.campus.FeedMethod;
import dev.hexaflow.domain.campus.InvalidCampusDataException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.List;

/** Reads campus data files in CSV or JSON, both in UTF-8. */
public final class JacksonCampusDataParser implements CampusDataParser {

    private final CsvCampusDataReader csv = new CsvCampusDataReader();
    private final JsonCampusDataReader json = new JsonCampusDataReader();

    @Override
    public List<CampusRecord> parse(FeedMethod dataSet, DataFileFormat format, byte[] content) {
        return switch (format) {
            case CSV -> csv.read(dataSet, utf8(content));
            case JSON -> json.read(dataSet, content);
        };
    }

    private static String utf8(byte[] content) {
        try {
            return StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(content))
                    .toString();
        } catch (CharacterCodingException e) {
            throw new InvalidCampusDataException(0, null, "the file is not UTF-8 text");
        }
    }
}
