package dev.hexaflow.engine;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hexaflow.adapters.nodes.fakes.FakeModelServer;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a new user does, as a process: the artifacts go into a throwaway local repository, an outside Maven project
 * is made of the embedding page's {@code pom.xml} and program (read from docs/embedding.md, so they cannot drift), built by
 * Maven with no access to this build's modules, and run. Third-party artifacts come from the local repository of
 * this build, served as a file:// mirror, so the test needs no network and leaves that repository as it was.
 */
class OutsideProjectIT {

    private static final Path ROOT = Path.of(System.getProperty("hexaflow.root", "..")).toAbsolutePath().normalize();
    private static final String VERSION = Objects.requireNonNull(System.getProperty("hexaflow.version"),
            "hexaflow.version: run with mvn verify");
    /** What hexaflow-engine needs at run time, and the poms that hold their versions. */
    private static final List<String> JARS = List.of("domain", "workflow-engine", "application", "adapters-dsl",
            "adapters-nodes", "engine");

    @TempDir
    static Path work;
    private static Path repository;
    private static Path settings;

    @BeforeAll
    static void installTheArtifactsIntoAThrowawayRepository() throws IOException {
        repository = work.resolve("repository");
        install("hexaflow-parent", ROOT.resolve("pom.xml"), null, null);
        install("hexaflow-bom", ROOT.resolve("bom/pom.xml"), null, null);
        for (String module : JARS) {
            String artifact = "hexaflow-" + module;
            Path target = ROOT.resolve(module).resolve("target");
            install(artifact, ROOT.resolve(module).resolve("pom.xml"),
                    target.resolve(artifact + "-" + VERSION + ".jar"),
                    target.resolve(artifact + "-" + VERSION + "-sources.jar"));
        }
        Path thisBuildsRepository = Path.of(System.getProperty("maven.repository"));
        settings = Files.writeString(work.resolve("settings.xml"), """
                <settings>
                  <mirrors>
                    <mirror>
                      <id>this-build</id>
                      <mirrorOf>*</mirrorOf>
                      <url>%s</url>
                    </mirror>
                  </mirrors>
                </settings>
                """.formatted(thisBuildsRepository.toUri()));
    }

    @Test
    void theReadmesProgramBuildsAsAnOutsideProjectAndPrintsASucceededRun() throws Exception {
        String section = embeddingPage();
        String pom = block(section, "xml");
        String program = block(section, "java");
        assertThat(pom).as("the page's pom names the version built here").contains("<version>" + VERSION + "</version>");
        for (String plugin : List.of("compiler", "resources", "jar", "surefire", "shade")) {
            assertThat(pom).as("the page's pom pins the %s plugin this build uses", plugin).contains(
                    "<artifactId>maven-" + plugin + "-plugin</artifactId>\n        <version>"
                            + System.getProperty("plugin." + plugin) + "</version>");
        }
        Path project = project("embedding-page", pom, program);

        Ran ran = run(project, mainClass(program));

        assertThat(ran.exit()).as(ran.output()).isZero();
        assertThat(ran.output()).contains("succeeded {text=Hello, Ada!}");
    }

    @Test
    void anOutsideProjectPlugsItsOwnModelProviderAndRunsAnLlmNodeOnIt() throws Exception {
        String program;
        try (InputStream source = OutsideProjectIT.class
                .getResourceAsStream("/outside/plugged-model/LoopbackModelProgram.java")) {
            program = new String(Objects.requireNonNull(source).readAllBytes(), StandardCharsets.UTF_8);
        }
        Path project = project("plugged-model", block(embeddingPage(), "xml"), program);

        try (FakeModelServer model = new FakeModelServer()) {
            model.answer(FakeModelServer.Script.text("Forty two", 5, 2));

            Ran ran = run(project, mainClass(program), model.baseUrl().toString());

            assertThat(ran.exit()).as(ran.output()).isZero();
            assertThat(ran.output()).contains("succeeded {answer=Forty two}");
            assertThat(model.requests()).hasSize(1);
            JsonNode asked = model.requests().get(0);
            assertThat(asked.path("messages").get(0).path("content").asText()).isEqualTo("What is six times seven?");
        }
    }

    /** Lays the files out as {@code mvn install} does; they carry no origin, so Maven takes them as installed here. */
    private static void install(String artifact, Path pom, Path jar, Path sources) throws IOException {
        Path dir = repository.resolve("dev/hexaflow").resolve(artifact).resolve(VERSION);
        Files.createDirectories(dir);
        Files.copy(pom, dir.resolve(artifact + "-" + VERSION + ".pom"));
        for (Path file : new Path[] {jar, sources}) {
            if (file == null) {
                continue;
            }
            assertThat(file).as("%s is built by mvn verify (or package) of the whole project", file).isRegularFile();
            Files.copy(file, dir.resolve(file.getFileName()));
        }
    }

    private static String embeddingPage() throws IOException {
        return Files.readString(ROOT.resolve("docs/embedding.md"));
    }

    private static String block(String section, String language) {
        Matcher block = Pattern.compile("```" + language + "\n(.*?)```", Pattern.DOTALL).matcher(section);
        assertThat(block.find()).as("a ```%s block in docs/embedding.md", language).isTrue();
        return block.group(1);
    }

    private static String mainClass(String program) {
        Matcher pkg = Pattern.compile("^package ([\\w.]+);", Pattern.MULTILINE).matcher(program);
        Matcher type = Pattern.compile("^public (?:final )?class (\\w+)", Pattern.MULTILINE).matcher(program);
        assertThat(type.find()).as("a public class in%n%s", program).isTrue();
        return (pkg.find() ? pkg.group(1) + "." : "") + type.group(1);
    }

    /** A Maven project of its own: the page's whole {@code pom.xml}, made to run the given program. */
    private static Path project(String name, String pom, String program) throws IOException {
        Path project = work.resolve(name);
        Path source = project.resolve("src/main/java").resolve(mainClass(program).replace('.', '/') + ".java");
        Files.createDirectories(source.getParent());
        Files.writeString(source, program);
        Files.writeString(project.resolve("pom.xml"), pom.replace("<mainClass>com.example.HelloWorkflow</mainClass>",
                "<mainClass>" + mainClass(program) + "</mainClass>"));
        return project;
    }

    /** Builds the project with a Maven of its own and runs its jar. */
    private static Ran run(Path project, String mainClass, String... args) throws Exception {
        String mavenHome = System.getProperty("maven.home");
        String mvn = mavenHome == null ? "mvn" : Path.of(mavenHome, "bin", "mvn").toString();
        Ran build = finish(new ProcessBuilder(mvn, "-B", "-q", "-s", settings.toString(),
                "-Dmaven.repo.local=" + repository, "-DskipTests", "package").directory(project.toFile()), 110);
        assertThat(build.exit()).as("mvn package of %s:%n%s", project.getFileName(), build.output()).isZero();

        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                .toString(), "-jar", project.resolve("target/program.jar").toString()));
        command.addAll(List.of(args));
        return finish(new ProcessBuilder(command).directory(project.toFile()), 60);
    }

    /** A process that ended: its exit code, and its standard output and error together. */
    private record Ran(int exit, String output) {
    }

    private static Ran finish(ProcessBuilder builder, int seconds) throws Exception {
        Path log = Files.createTempFile(work, "process", ".log");
        Process process = builder.redirectErrorStream(true).redirectOutput(log.toFile()).start();
        if (!process.waitFor(seconds, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor();
            throw new AssertionError(builder.command() + " did not end within " + seconds + " s:\n"
                    + Files.readString(log));
        }
        return new Ran(process.exitValue(), Files.readString(log));
    }
}
