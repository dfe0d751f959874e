package dev.hexaflow.adapters.http.support;

import dev.hexaflow.application.common.ApiError;
import dev.hexaflow.application.common.ApiException;
import io.javalin.http.Context;

/** Whole numbers in a query string, refused as Dify refuses a bad one. */
public final class QueryNumbers {

    private QueryNumbers() {
    }

    /** The parameter as a whole number, {@code otherwise} when absent or blank. */
    public static int number(Context ctx, String name, int otherwise) {
        String text = ctx.queryParam(name);
        if (text == null || text.isBlank()) {
            return otherwise;
        }
        try {
            return Integer.parseInt(text.strip());
        } catch (NumberFormatException e) {
            throw new ApiException(ApiError.INVALID_PARAM, name + " must be a whole number, was '" + text + "'");
        }
    }
}
