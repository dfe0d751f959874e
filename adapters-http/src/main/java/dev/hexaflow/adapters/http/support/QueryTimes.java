package dev.hexaflow.adapters.http.support;

import dev.hexaflow.application.common.ApiError;
import dev.hexaflow.application.common.ApiException;
import io.javalin.http.Context;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;

/** Times in a query string as Dify's log search reads them: ISO 8601, with or without a zone, or a date. */
public final class QueryTimes {

    private QueryTimes() {
    }

    /** The parameter as Unix seconds (UTC where it names no zone); null when absent or blank. */
    public static Long time(Context ctx, String name) {
        String text = ctx.queryParam(name);
        if (text == null || text.isBlank()) {
            return null;
        }
        text = text.strip();
        try {
            return OffsetDateTime.parse(text).toEpochSecond();
        } catch (DateTimeParseException notOffset) {
            try {
                return LocalDateTime.parse(text).toEpochSecond(ZoneOffset.UTC);
            } catch (DateTimeParseException notLocal) {
                try {
                    return LocalDate.parse(text).atStartOfDay().toEpochSecond(ZoneOffset.UTC);
                } catch (DateTimeParseException notDate) {
                    throw new ApiException(ApiError.INVALID_PARAM, name + " must be an ISO 8601 time, was '"
                            + text + "'");
                }
            }
        }
    }
}
