package dev.hexaflow.domain.campus;

/**
 * A campus data file over the size a data set may have, in bytes or in records: refused whole.
 *
 * <p>The bounds keep every keyless answer of the feed small: at about 210 bytes an event, a 5 000-row
 * holidays.ics is about 1 MB (the 400 000 rows once loaded made it 83 MB and 25 s). Real data fits with wide
 * room: the bundled files are at most 205 records and 5 KB, and fifteen years of a campus's holidays are about
 * 200 rows.
 */
public final class DataSetTooLargeException extends InvalidCampusDataException {

    /** The most records a data set holds. */
    public static final int MAX_RECORDS = 5_000;

    /** The largest data file taken, in bytes (1 MiB). */
    public static final int MAX_BYTES = 1024 * 1024;

    private DataSetTooLargeException(String problem) {
        super(0, null, problem);
    }

    /** Refuses a file of more than {@link #MAX_BYTES} bytes. */
    public static void checkBytes(long bytes) {
        if (bytes > MAX_BYTES) {
            throw new DataSetTooLargeException("the file is " + bytes + " bytes; a data set file may be at most "
                    + MAX_BYTES + " bytes (1 MiB)");
        }
    }

    /** Refuses a data set of more than {@link #MAX_RECORDS} records. */
    public static void checkRecords(int records) {
        if (records > MAX_RECORDS) {
            throw new DataSetTooLargeException("the file has " + records + " records; a data set may hold at most "
                    + MAX_RECORDS + " records");
        }
    }
}
