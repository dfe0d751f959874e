package dev.hexaflow.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * One idea per room, read in one sitting: no main source file over 400 lines, and no method or constructor over 60
 * (from its declaration to its closing brace).
 */
class SourceSizeTest {

    private static final Path ROOT = Path.of(System.getProperty("hexaflow.root", "..")).toAbsolutePath().normalize();
    private static final int MOST_LINES = 400;
    private static final int MOST_METHOD_LINES = 60;


    /**
     * A method or constructor declaration that opens a body: indented, with modifiers, type parameters and a return
     * type, or a capitalised name alone (a constructor), then its parameters. Statements (return, new, if...) are
     * not declarations.
     */
    private static final Pattern DECLARATION = Pattern.compile("^( +)(?:(?:public|protected|private|static|final"
            + "|synchronized|abstract|default)\\s+)*(?:<[^>]+>\\s+)?(?:(\\w[\\w.<>\\[\\], ?]*)\\s+)?(\\w+)\\s*\\([^;]*$");
    private static final Pattern STATEMENT = Pattern.compile("^\\s*(return|new|else|if|for|while|switch|catch|throw"
            + "|try|do|case|yield|record|class|interface|enum)\\b.*");

    @Test
    void noMainSourceFileIsOverFourHundredLines() throws IOException {
        Map<String, Integer> over = new TreeMap<>();
        int files = 0;
        for (Path source : mainSources()) {
            files++;
            int lines = Files.readAllLines(source).size();
            if (lines > MOST_LINES) {
                over.put(ROOT.relativize(source).toString(), lines);
            }
        }
        assertThat(files).as("main source files read").isGreaterThan(500);
        assertThat(over).as("files over %d lines", MOST_LINES).isEmpty();
    }

    @Test
    void noMethodIsOverSixtyLines() throws IOException {
        Map<String, Integer> over = new TreeMap<>();
        int methods = 0;
        for (Path source : mainSources()) {
            List<String> lines = Files.readAllLines(source);
            for (int i = 0; i < lines.size(); i++) {
                Matcher declaration = DECLARATION.matcher(lines.get(i));
                if (!declaration.matches() || STATEMENT.matcher(lines.get(i)).matches()
                        || declaration.group(2) == null && !Character.isUpperCase(declaration.group(3).charAt(0))) {
                    continue; // a statement, or a call: only a constructor goes without a return type
                }
                int end = closingBrace(lines, i, declaration.group(1));
                if (end < 0) {
                    continue; // abstract or an interface's: no body
                }
                methods++;
                int length = end - i + 1;
                if (length > MOST_METHOD_LINES) {
                    over.put(ROOT.relativize(source) + ":" + (i + 1) + " " + declaration.group(3), length);
                }
                i = end;
            }
        }
        assertThat(methods).as("method bodies read").isGreaterThan(3000);
        assertThat(over).as("methods over %d lines", MOST_METHOD_LINES).isEmpty();
    }

    /** The line of the brace that closes the body opened at or after {@code from}, at the same indent; -1 if none. */
    private static int closingBrace(List<String> lines, int from, String indent) {
        int open = from;
        while (open < lines.size() && !lines.get(open).contains("{")) {
            if (lines.get(open).stripTrailing().endsWith(";")) {
                return -1;
            }
            open++;
        }
        if (open == lines.size() || lines.get(open).stripTrailing().endsWith("}")) {
            return open == lines.size() ? -1 : open; // a one-line body
        }
        for (int line = open + 1; line < lines.size(); line++) {
            if (lines.get(line).startsWith(indent + "}")) {
                return line;
            }
        }
        return -1;
    }

    private static List<Path> mainSources() throws IOException {
        try (Stream<Path> files = Files.walk(ROOT)) {
            return files.filter(path -> path.toString().endsWith(".java"))
                    .filter(path -> path.toString().contains("/src/main/java/"))
                    .filter(path -> !path.toString().contains("/target/")).toList();
        }
    }
}
