package dev.hexaflow.domain.chat;

import java.util.List;
import java.util.Locale;

/**
 * The variable_name a client lists a conversation's variables by: matched as a part of the name, any case. Dify
 * lets through letters, digits, '-', '_' and '.', 1 to 255 characters, and none of the texts it takes for SQL.
 */
public record VariableNameFilter(String text) {

    private static final List<String> DANGEROUS = List.of("'", "\"", ";", "--", "/*", "*/", "xp_", "sp_");

    /** @throws IllegalArgumentException with Dify's message for a name it refuses */
    public VariableNameFilter {
        if (text == null || text.isEmpty() || text.codePointCount(0, text.length()) > 255) {
            throw new IllegalArgumentException("variable_name must be 1 to 255 characters");
        }
        String bare = text.replace("-", "").replace("_", "").replace(".", "");
        if (bare.isEmpty() || !bare.codePoints().allMatch(Character::isLetterOrDigit)) {
            throw new IllegalArgumentException("Variable name can only contain letters, numbers, hyphens (-), "
                    + "underscores (_), and periods (.)");
        }
        String lower = text.toLowerCase(Locale.ROOT);
        for (String pattern : DANGEROUS) {
            if (lower.contains(pattern)) {
                throw new IllegalArgumentException("Variable name contains invalid characters: " + pattern);
            }
        }
    }

    public boolean matches(String name) {
        return name.toLowerCase(Locale.ROOT).contains(text.toLowerCase(Locale.ROOT));
    }
}
