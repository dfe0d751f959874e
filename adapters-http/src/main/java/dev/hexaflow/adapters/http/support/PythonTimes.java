package dev.hexaflow.adapters.http.support;

import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/** Times as Dify writes a naive UTC {@code datetime} with {@code isoformat()} or pydantic's JSON mode. */
public final class PythonTimes {

    // Seconds always written: Java's own ISO form drops them when they are zero, Python's never does.
    private static final DateTimeFormatter ISO = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss");

    private PythonTimes() {
    }

    /** Unix seconds as {@code 2025-04-24T09:24:38}: no zone, as Dify keeps its times in UTC without one. */
    public static String isoformat(long epochSeconds) {
        return LocalDateTime.ofEpochSecond(epochSeconds, 0, ZoneOffset.UTC).format(ISO);
    }
}
