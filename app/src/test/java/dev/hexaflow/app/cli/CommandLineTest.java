package dev.hexaflow.app.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hexaflow.app.config.Configuration;
import dev.hexaflow.app.config.DatabaseServer;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class CommandLineTest {

    private static Command parse(String... args) {
        return CommandLine.parse(List.of(args), Map.of());
    }

    @Test
    void noArgumentsServeOnTheDefaults() {
        assertThat(parse()).isEqualTo(new Command.Serve(
                new Configuration("127.0.0.1", 8080, Path.of("data"), Optional.empty())));
        assertThat(parse("serve")).isEqualTo(parse());
    }

    @Test
    void theEnvironmentSetsWhatFlagsDoNotAndFlagsWin() {
        Map<String, String> env = Map.of("HEXAFLOW_PORT", "9000", "HEXAFLOW_HOST", "0.0.0.0",
                "HEXAFLOW_DATA_DIR", "/srv/hexaflow", "HEXAFLOW_ADMIN_TOKEN", "a-long-enough-admin-token");

        Command command = CommandLine.parse(List.of("--port", "9100"), env);

        assertThat(command).isEqualTo(new Command.Serve(new Configuration("0.0.0.0", 9100,
                Path.of("/srv/hexaflow"), Optional.of("a-long-enough-admin-token"))));
    }

    @Test
    void aDatabaseUrlInTheEnvironmentOrAFlagChoosesPostgresqlWithTheLoginOfTheEnvironment() {
        Map<String, String> env = Map.of("HEXAFLOW_DATABASE_URL", "jdbc:postgresql://db:5432/hexaflow",
                "HEXAFLOW_DATABASE_USER", "hexaflow", "HEXAFLOW_DATABASE_PASSWORD", "s3cret");

        Command fromEnvironment = CommandLine.parse(List.of(), env);
        Command fromFlag = CommandLine.parse(List.of("--database-url", "jdbc:postgresql://other:5433/hx"),
                Map.of("HEXAFLOW_DATABASE_USER", "hexaflow", "HEXAFLOW_DATABASE_PASSWORD", "s3cret"));

        assertThat(((Command.Serve) fromEnvironment).config().database()).contains(
                new DatabaseServer("jdbc:postgresql://db:5432/hexaflow", "hexaflow", "s3cret"));
        assertThat(((Command.Serve) fromFlag).config().database()).contains(
                new DatabaseServer("jdbc:postgresql://other:5433/hx", "hexaflow", "s3cret"));
        assertThat(((Command.Serve) parse()).config().database()).as("H2 when unset").isEmpty();
        assertThat(fromEnvironment.toString()).doesNotContain("s3cret");
    }

    @Test
    void flagsTakeTheirValueAfterASpaceOrAnEqualsSign() {
        assertThat(parse("--port=0", "--data-dir=d", "--host", "::1"))
                .isEqualTo(new Command.Serve(new Configuration("::1", 0, Path.of("d"), Optional.empty())));
    }

    @Test
    void campusCommandsAreRecognised() {
        Configuration defaults = Configuration.fromEnvironment(Map.of());
        assertThat(parse("campus", "keys", "create")).isEqualTo(new Command.CreateCampusKey(defaults));
        assertThat(parse("campus", "keys", "ban", "k1")).isEqualTo(new Command.BanCampusKey(defaults, "k1"));
        assertThat(parse("campus", "import", "tutors", "t.csv", "--data-dir", "x")).isEqualTo(
                new Command.ImportCampusData(defaults.withDataDir(Path.of("x")), "tutors", Path.of("t.csv")));
        assertThat(parse("help")).isEqualTo(new Command.Help());
        assertThat(parse("serve", "--help")).isEqualTo(new Command.Help());
        assertThat(parse("--version")).isEqualTo(new Command.Version());
    }

    @Test
    void mistakesAreNamedInOneLine() {
        assertThatThrownBy(() -> parse("--prot", "1")).isInstanceOf(UsageException.class)
                .hasMessage("unknown flag --prot");
        assertThatThrownBy(() -> parse("--bogus=1")).hasMessage("unknown flag --bogus");
        assertThatThrownBy(() -> parse("--port")).hasMessage("--port needs a value");
        assertThatThrownBy(() -> parse("--port", "http")).hasMessage("--port must be a port number, was 'http'");
        assertThatThrownBy(() -> parse("--port", "70000")).hasMessageContaining("between 0 and 65535");
        assertThatThrownBy(() -> parse("launch")).hasMessage("unknown command 'launch'");
        assertThatThrownBy(() -> parse("campus", "keys")).hasMessageContaining("unknown campus command");
        assertThatThrownBy(() -> CommandLine.parse(List.of(), Map.of("HEXAFLOW_ADMIN_TOKEN", "short")))
                .hasMessageContaining("at least 16 characters");
    }

    @Test
    void runTakesAQueryAndChatTakesTheRunFlagsButNotAQuery() {
        assertThat(parse("run", "c.yml", "--query", "hi there", "--user", "ada")).isEqualTo(
                new Command.RunWorkflow(Path.of("c.yml"), "{}", "ada", false, Optional.empty(),
                        Optional.of("hi there"), Optional.empty()));
        assertThat(parse("chat", "c.yml", "--inputs", "{\"x\": 1}", "--tools", "t.yml", "--data-dir", "d")).isEqualTo(
                new Command.Chat(Path.of("c.yml"), "{\"x\": 1}", "cli", Optional.of(Path.of("t.yml")),
                        Optional.of(Path.of("d"))));
        assertThatThrownBy(() -> parse("run", "c.yml", "--port", "1")).hasMessageContaining(
                "--port does not go with the run command; it takes --inputs, --user, --tools, --data-dir");
        assertThatThrownBy(() -> parse("chat", "c.yml", "--query", "hi"))
                .hasMessageContaining("--query does not go with the chat command");
        assertThatThrownBy(() -> parse("chat", "c.yml", "--stream")).hasMessageContaining("chat always streams");
        assertThatThrownBy(() -> parse("chat")).hasMessageContaining("chat takes one chatflow DSL file");
        assertThatThrownBy(() -> parse("chat", "c.yml", "--port", "1"))
                .hasMessage("--port does not go with the chat command; it takes --inputs, --user, --tools, --data-dir "
                        + "(see hexaflow --help)");
        assertThatThrownBy(() -> parse("serve", "--query", "hi"))
                .hasMessage("--query goes with the run and chat commands");
    }

    @Test
    void theHelpListsTheDocumentBounds() {
        assertThat(CommandLine.HELP).contains("HEXAFLOW_DOCUMENT_MAX_CHARS", "HEXAFLOW_DOCUMENT_MAX_PAGES",
                "HEXAFLOW_DOCUMENT_MAX_INFLATED_MB");
    }

    @Test
    void theHelpListsRunWithAQueryAndChat() {
        assertThat(CommandLine.HELP).contains("run FILE.yml", "--query TEXT", "chat FILE.yml", "/new", "/quit");
    }
}
