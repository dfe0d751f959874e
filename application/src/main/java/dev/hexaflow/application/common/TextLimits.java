package dev.hexaflow.application.common;

import dev.hexaflow.application.common.ApiError;
import dev.hexaflow.application.common.ApiException;

/** A client's text must fit where it is kept; a longer one is refused, naming the field, before anything is kept. */
public final class TextLimits {

    private TextLimits() {
    }

    /** Answers {@code text} when it has at most {@code max} characters (or is null), else refuses it. */
    public static String atMost(String field, String text, int max) {
        if (text != null && text.length() > max) {
            throw new ApiException(ApiError.INVALID_PARAM, field + " must be at most " + max + " characters.");
        }
        return text;
    }
}
