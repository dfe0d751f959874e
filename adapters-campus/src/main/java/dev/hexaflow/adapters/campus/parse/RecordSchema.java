package dev.hexaflow.adapters.campus.parse;

import dev.hexaflow.domain.campus.CampusRecord;
import dev.hexaflow.domain.campus.FeedMethod;
import dev.hexaflow.domain.campus.Holiday;
import dev.hexaflow.domain.campus.InvalidCampusDataException;
import dev.hexaflow.domain.campus.Printer;
import dev.hexaflow.domain.campus.Tutor;
import java.time.LocalDate;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.time.format.ResolverStyle;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The fields a data file may give for each data set, and how their text becomes a record. Both file layouts
 * go through here, so CSV and JSON accept and refuse the same things with the same words.
 */
final class RecordSchema {

    private static final DateTimeFormatter Y_M_D = DateTimeFormatter.ofPattern("uuuu-MM-dd")
            .withResolverStyle(ResolverStyle.STRICT);

    private static final Map<FeedMethod, List<String>> FIELDS = Map.of(
            FeedMethod.TUTORS, List.of("subject", "catalog_number", "title", "tutors_count", "contact_url"),
            FeedMethod.PRINTERS, List.of("printer", "ad", "server", "comment", "driver", "room", "faculty"),
            FeedMethod.HOLIDAYS, List.of("name", "date"));

    /** The longest text each field may hold: what the store keeps, in characters. */
    private static final Map<String, Integer> MAX_LENGTH = Map.ofEntries(
            Map.entry("subject", 200), Map.entry("catalog_number", 200), Map.entry("title", 1000),
            Map.entry("contact_url", 2000), Map.entry("printer", 500), Map.entry("ad", 2000),
            Map.entry("server", 500), Map.entry("comment", 2000), Map.entry("driver", 500), Map.entry("room", 500),
            Map.entry("faculty", 500), Map.entry("name", 500));

    /** Other names a column may carry: the university's own holidays file calls the name "holiday". */
    private static final Map<FeedMethod, Map<String, String>> ALIASES = Map.of(
            FeedMethod.HOLIDAYS, Map.of("holiday", "name"));

    private RecordSchema() {
    }

    static List<String> fields(FeedMethod dataSet) {
        return FIELDS.get(dataSet);
    }

    /** The field a column or key names, after aliases, or empty when the data set has no such field. */
    static Optional<String> field(FeedMethod dataSet, String name) {
        String canonical = ALIASES.getOrDefault(dataSet, Map.of()).getOrDefault(name, name);
        return fields(dataSet).contains(canonical) ? Optional.of(canonical) : Optional.empty();
    }

    static boolean isInteger(String field) {
        return field.equals("tutors_count");
    }

    /**
     * Builds one record from its field values (text, or null), refusing a value that does not fit its field.
     *
     * @param line the 1-based line the record starts on, for the error
     */
    static CampusRecord build(FeedMethod dataSet, Map<String, String> values, int line) {
        values.forEach((field, value) -> {
            int max = MAX_LENGTH.getOrDefault(field, Integer.MAX_VALUE);
            if (value != null && value.length() > max) {
                throw new InvalidCampusDataException(line, field, "the value is " + value.length()
                        + " characters long; at most " + max + " fit");
            }
        });
        return switch (dataSet) {
            case TUTORS -> new Tutor(values.get("subject"), values.get("catalog_number"), values.get("title"),
                    count(values.get("tutors_count"), line), values.get("contact_url"));
            case PRINTERS -> new Printer(values.get("printer"), values.get("ad"), values.get("server"),
                    values.get("comment"), values.get("driver"), values.get("room"), values.get("faculty"));
            case HOLIDAYS -> new Holiday(values.get("name"), date(values.get("date"), line));
        };
    }

    private static Integer count(String text, int line) {
        if (text == null) {
            return null;
        }
        try {
            int count = Integer.parseInt(text.trim());
            if (count < 0) {
                throw new InvalidCampusDataException(line, "tutors_count", "'" + text + "' is negative");
            }
            return count;
        } catch (NumberFormatException e) {
            throw new InvalidCampusDataException(line, "tutors_count", "'" + text + "' is not a whole number");
        }
    }

    private static LocalDate date(String text, int line) {
        if (text == null) {
            return null;
        }
        try {
            return LocalDate.parse(text.trim(), Y_M_D);
        } catch (DateTimeParseException e) {
            throw new InvalidCampusDataException(line, "date", "'" + text + "' is not a date in Y-m-d form");
        }
    }
}
