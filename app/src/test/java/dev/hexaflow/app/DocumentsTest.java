package dev.hexaflow.app;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hexaflow.app.cli.CommandLine;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The documents held to the code, since documents that drift are bugs: the README stays a five-minute read that
 * opens with the two commands, every link leads somewhere, the feature map names classes that exist, and the
 * reference pages say what the program prints and reads.
 */
class DocumentsTest {

    private static final Path ROOT = Path.of(System.getProperty("hexaflow.root", "..")).toAbsolutePath().normalize();
    private static final Pattern LINK = Pattern.compile("\\[[^\\]]*\\]\\(([^)\\s]+)\\)");
    private static final Pattern CLASS_NAME = Pattern.compile("`(dev\\.hexaflow(?:\\.[a-z0-9]+)+\\.[A-Z]\\w*)`");
    private static final Pattern TEST_NAME = Pattern.compile("`([A-Z]\\w*(?:Test|IT|Contract))`");
    private static final Pattern ADMIN_ROUTE = Pattern.compile(
            "routes\\.(get|post|put|delete|patch)\\(\"(/admin[^\"]*)\"");
    private static final Pattern ADMIN_ROW = Pattern.compile("(?m)^\\| (GET|POST|PUT|DELETE|PATCH) \\| `([^`]+)` \\|");
    /** Hexaflow's own settings, and the standard OpenTelemetry ones its tracing reads. */
    private static final Pattern SETTING_READ = Pattern.compile("\"((?:HEXAFLOW|OTEL)_[A-Z0-9_]+)\"");
    private static final Pattern NUMERIC_DEFAULT = Pattern.compile("\"(HEXAFLOW_[A-Z0-9_]+)\",\\s*([0-9_]+)L?[,)]");
    private static final Pattern SETTING_ROW = Pattern.compile("^\\| `((?:HEXAFLOW|OTEL)_[A-Z0-9_]+)` \\| ([^|]+) \\|",
            Pattern.MULTILINE);

    @Test
    void theReadmeIsAFiveMinuteReadThatOpensWithTheTwoCommands() throws IOException {
        List<String> readme = Files.readAllLines(ROOT.resolve("README.md"));
        assertThat(readme).as("README.md's lines").hasSizeLessThanOrEqualTo(250);
        String firstBlock = fencedBlocks(String.join("\n", readme), "sh").get(0);
        assertThat(firstBlock.lines().toList()).containsExactly(
                "mvn -B -DskipTests package && java -jar app/target/hexaflow.jar", "mvn -B verify");
        assertThat(Files.readString(ROOT.resolve(".ci/run"))).as("CI runs the README's test command")
                .containsPattern("(?m)^mvn -B verify$");
    }

    @Test
    void everyLinkBetweenTheDocumentsLeadsToAFileAndAHeadingInIt() throws IOException {
        List<String> broken = new ArrayList<>();
        int links = 0;
        for (Path document : documents()) {
            Matcher link = LINK.matcher(outsideCode(Files.readString(document)));
            while (link.find()) {
                String target = link.group(1);
                if (target.matches("^[a-z]+:.*")) {
                    continue; // https:, mailto:: the web's, not ours
                }
                links++;
                int hash = target.indexOf('#');
                String file = hash < 0 ? target : target.substring(0, hash);
                Path linked = file.isEmpty() ? document : document.getParent().resolve(file).normalize();
                if (!Files.exists(linked)) {
                    broken.add(ROOT.relativize(document) + ": " + target + " (no such file)");
                } else if (hash >= 0 && !headings(linked).contains(target.substring(hash + 1))) {
                    broken.add(ROOT.relativize(document) + ": " + target + " (no such heading)");
                }
            }
        }
        assertThat(links).as("links checked").isGreaterThan(30);
        assertThat(broken).isEmpty();
    }

    @Test
    void theFeatureMapNamesEveryFeatureAndClassesThatExist() throws IOException {
        String readme = Files.readString(ROOT.resolve("README.md"));
        String map = readme.substring(readme.indexOf("## Where each feature lives"));
        map = map.substring(0, map.indexOf("\n## ", 4));
        assertThat(map).contains("`holidays.ics`", "a blocking run", "the SSE stream", "the `if-else` node",
                "the `tool` node over MCP", "knowledge retrieval", "completion webhooks", "PostgreSQL leases");
        Set<String> missing = new TreeSet<>();
        Matcher name = CLASS_NAME.matcher(map);
        int named = 0;
        while (name.find()) {
            named++;
            String file = "src/main/java/" + name.group(1).replace('.', '/') + ".java";
            try (Stream<Path> modules = Files.list(ROOT)) {
                if (modules.noneMatch(module -> Files.isRegularFile(module.resolve(file)))) {
                    missing.add(name.group(1));
                }
            }
        }
        assertThat(named).isGreaterThanOrEqualTo(16);
        assertThat(missing).as("classes the README names that no module has").isEmpty();
    }

    @Test
    void theCommandReferenceIsWhatHelpPrints() throws IOException {
        String page = Files.readString(ROOT.resolve("docs/reference/cli.md"));
        assertThat(fencedBlocks(page, "")).first().isEqualTo(CommandLine.HELP);
    }

    @Test
    void theSettingsReferenceListsEverySettingTheCodeReadsWithItsDefault() throws IOException {
        Map<String, String> listed = new TreeMap<>();
        Matcher row = SETTING_ROW.matcher(Files.readString(ROOT.resolve("docs/reference/settings.md")));
        while (row.find()) {
            listed.put(row.group(1), row.group(2).strip());
        }
        Set<String> read = new TreeSet<>();
        Map<String, String> defaults = new TreeMap<>();
        for (Path source : mainSources()) {
            String code = Files.readString(source);
            SETTING_READ.matcher(code).results().forEach(match -> read.add(match.group(1)));
            NUMERIC_DEFAULT.matcher(code).results().forEach(match -> defaults.put(match.group(1),
                    match.group(2).replace("_", "")));
        }
        assertThat(read).as("settings the code reads").hasSizeGreaterThan(40);
        assertThat(listed.keySet()).as("docs/reference/settings.md").containsExactlyElementsOf(read);
        defaults.forEach((setting, value) -> assertThat(listed.get(setting)).as("the default of " + setting)
                .startsWith("`" + value + "`"));
        Matcher helped = Pattern.compile("HEXAFLOW_[A-Z0-9_]+").matcher(CommandLine.HELP);
        while (helped.find()) {
            assertThat(read).as("a setting --help names").contains(helped.group());
        }
    }

    @Test
    void everyTestTheGuaranteesNameExists() throws IOException {
        Set<String> tests = new HashSet<>();
        try (Stream<Path> files = Files.walk(ROOT)) {
            files.map(ROOT::relativize).filter(path -> path.toString().contains("src/test/java/"))
                    .filter(path -> !path.toString().contains("/target/"))
                    .map(path -> path.getFileName().toString().replace(".java", "")).forEach(tests::add);
        }
        Matcher named = TEST_NAME.matcher(Files.readString(ROOT.resolve("docs/guarantees.md")));
        List<String> missing = new ArrayList<>();
        int count = 0;
        while (named.find()) {
            count++;
            if (!tests.contains(named.group(1))) {
                missing.add(named.group(1));
            }
        }
        assertThat(count).as("tests named in docs/guarantees.md").isGreaterThan(100);
        assertThat(missing).as("tests docs/guarantees.md names that do not exist").isEmpty();
    }

    @Test
    void theAdminReferenceListsEveryAdminRoute() throws IOException {
        Set<String> registered = new TreeSet<>();
        try (Stream<Path> files = Files.walk(ROOT.resolve("adapters-http/src/main/java"))) {
            for (Path source : files.filter(path -> path.toString().endsWith(".java")).toList()) {
                Matcher route = ADMIN_ROUTE.matcher(Files.readString(source));
                while (route.find()) {
                    registered.add(route.group(1).toUpperCase(Locale.ROOT) + " " + route.group(2));
                }
            }
        }
        Set<String> documented = new TreeSet<>();
        Matcher row = ADMIN_ROW.matcher(Files.readString(ROOT.resolve("docs/reference/admin-api.md")));
        while (row.find()) {
            documented.add(row.group(1) + " " + row.group(2));
        }
        assertThat(registered).as("admin routes the server registers").hasSizeGreaterThan(20);
        assertThat(documented).as("docs/reference/admin-api.md against the routes").isEqualTo(registered);
    }

    @Test
    void theDecisionIndexListsEveryDecisionRecord() throws IOException {
        Path decisions = ROOT.resolve("docs/decisions");
        String index = Files.readString(decisions.resolve("README.md"));
        try (Stream<Path> records = Files.list(decisions)) {
            List<String> names = records.map(path -> path.getFileName().toString())
                    .filter(name -> name.matches("\\d{4}-.*\\.md")).sorted().toList();
            assertThat(names).hasSizeGreaterThan(30);
            for (String name : names) {
                assertThat(index).as("the index of decision records").contains("](" + name + ")");
            }
        }
    }

    private static List<Path> documents() throws IOException {
        List<Path> documents = new ArrayList<>(List.of(ROOT.resolve("README.md"), ROOT.resolve("CONTRIBUTING.md"),
                ROOT.resolve("BENCHMARKS.md")));
        try (Stream<Path> docs = Files.walk(ROOT.resolve("docs"))) {
            docs.filter(path -> path.toString().endsWith(".md")).sorted().forEach(documents::add);
        }
        return documents;
    }

    private static List<Path> mainSources() throws IOException {
        try (Stream<Path> files = Files.walk(ROOT)) {
            return files.filter(path -> path.toString().endsWith(".java"))
                    .filter(path -> path.toString().contains("/src/main/java/"))
                    .filter(path -> !ROOT.relativize(path).startsWith("bench"))
                    .filter(path -> !path.toString().contains("/target/")).toList();
        }
    }

    /** The anchors GitHub gives a file's headings: lower case, punctuation dropped, spaces as hyphens. */
    private static Set<String> headings(Path document) throws IOException {
        Set<String> anchors = new TreeSet<>();
        for (String line : outsideCode(Files.readString(document)).lines().toList()) {
            if (line.matches("^#{1,6} .*")) {
                String text = line.replaceFirst("^#+ ", "").toLowerCase(Locale.ROOT);
                anchors.add(text.replaceAll("[^\\p{L}\\p{N} _-]", "").replace(' ', '-'));
            }
        }
        return anchors;
    }

    /** The text with its fenced code blocks blanked, so that a link or heading inside one is not read as one. */
    private static String outsideCode(String markdown) {
        return markdown.replaceAll("(?ms)^```.*?^```", "");
    }

    private static List<String> fencedBlocks(String markdown, String language) {
        List<String> blocks = new ArrayList<>();
        Matcher block = Pattern.compile("(?ms)^```" + Pattern.quote(language) + "\\n(.*?)^```").matcher(markdown);
        while (block.find()) {
            blocks.add(block.group(1));
        }
        return blocks;
    }
}
