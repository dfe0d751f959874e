package dev.hexaflow.domain.campus;

import java.util.regex.Pattern;

/**
 * The name a JSONP answer is wrapped in: a JavaScript identifier or a dotted path of them
 * ({@code myResponse}, {@code app.feeds.onHolidays}), never anything that could run code of its own.
 */
public record JsonpCallback(String name) {

    private static final Pattern IDENTIFIER_PATH =
            Pattern.compile("[\\p{L}\\p{Nl}$_][\\p{L}\\p{Nl}\\p{Mn}\\p{Mc}\\p{Nd}\\p{Pc}$]*"
                    + "(\\.[\\p{L}\\p{Nl}$_][\\p{L}\\p{Nl}\\p{Mn}\\p{Mc}\\p{Nd}\\p{Pc}$]*)*");
    private static final int MAX_LENGTH = 128;

    public JsonpCallback {
        if (!isValid(name)) {
            throw new IllegalArgumentException("callback must be a JavaScript identifier path, was: " + name);
        }
    }

    public static boolean isValid(String name) {
        return name != null && name.length() <= MAX_LENGTH && IDENTIFIER_PATH.matcher(name).matches();
    }
}
