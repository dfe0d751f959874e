package dev.hexaflow.app.cli;

import dev.hexaflow.app.config.Configuration;
import dev.hexaflow.app.config.DatabaseServer;
import dev.hexaflow.app.wiring.BackupModule;
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Reads the words and flags of the command line into one of Hexaflow's commands. */
public final class CommandLine {

    /** The help text, {@code hexaflow --help}; a test holds docs/reference/cli.md to it. */
    public static final String HELP = Resources.text("/hexaflow-help.txt");

    /** The build this is, {@code hexaflow --version}: Maven writes it into the resource. */
    public static final String VERSION = Resources.text("/hexaflow-version.txt").strip();


    /** A running server's address and its admin token. */
    record AdminServer(URI url, String token) {
    }

    private CommandLine() {
    }

    /**
     * Parses the arguments; flags override the environment.
     *
     * @throws UsageException naming the first thing that is wrong
     */
    public static Command parse(List<String> args, Map<String, String> environment) {
        Arguments arguments = Arguments.read(args);
        if (arguments.help()) {
            return new Command.Help();
        }
        if (arguments.version()) {
            return new Command.Version();
        }
        List<String> words = arguments.words();
        String first = words.isEmpty() ? "" : words.get(0);
        if (first.equals("run")) {
            return runCommand(words, arguments.flags(), arguments.stream());
        }
        if (first.equals("chat") && !arguments.stream()) {
            return chatCommand(words, arguments.flags());
        }
        if (arguments.stream()) {
            throw new UsageException("--stream goes with the run command"
                    + (first.equals("chat") ? "; chat always streams" : ""));
        }
        return storeCommand(words, Flags.read(arguments.flags(), environment), environment);
    }

    /** The words and flags of a command line, in order; {@code --help}, {@code --version} and {@code --stream} apart. */
    private record Arguments(List<String> words, List<String[]> flags, boolean stream, boolean help,
            boolean version) {

        static Arguments read(List<String> args) {
            List<String> words = new ArrayList<>();
            List<String[]> flags = new ArrayList<>();
            boolean stream = false;
            for (int i = 0; i < args.size(); i++) {
                String arg = args.get(i);
                if (arg.equals("-h") || arg.equals("--help")) {
                    return new Arguments(words, flags, stream, true, false);
                }
                if (arg.equals("--version")) {
                    return new Arguments(words, flags, stream, false, true);
                }
                if (arg.equals("--stream")) {
                    stream = true;
                } else if (arg.equals("--reset")) {
                    flags.add(new String[] {arg, ""}); // apps limits: a flag with no value
                } else if (arg.startsWith("-")) {
                    int equals = arg.indexOf('=');
                    String name = equals > 0 ? arg.substring(0, equals) : arg;
                    if (!isFlag(name)) {
                        throw new UsageException("unknown flag " + name);
                    }
                    if (equals < 0 && i + 1 >= args.size()) {
                        throw new UsageException(name + " needs a value");
                    }
                    flags.add(new String[] {name, equals > 0 ? arg.substring(equals + 1) : args.get(++i)});
                } else {
                    words.add(arg);
                }
            }
            return new Arguments(words, flags, stream, false, false);
        }
    }

    /**
     * The flags of the commands that open a store or call a server: the configuration they set, a remote server's
     * (--url, --token, --workflow-id), the tools and triggers commands' own, and the knowledge base's id.
     */
    private record Flags(Configuration config, Map<String, String> remote, List<String[]> own,
            Optional<String> knowledgeId) {

        static Flags read(List<String[]> flags, Map<String, String> environment) {
            Configuration config = Configuration.fromEnvironment(environment);
            Map<String, String> remote = new java.util.HashMap<>();
            List<String[]> toolFlags = new ArrayList<>();
            Optional<String> knowledgeId = Optional.empty();
            for (String[] flag : flags) {
                if (flag[0].equals("--id")) {
                    knowledgeId = Optional.of(flag[1]);
                    continue;
                }
                config = switch (flag[0]) {
                    case "--port" -> config.withPort(Configuration.port(flag[1], "--port"));
                    case "--host" -> config.withHost(flag[1]);
                    case "--data-dir" -> config.withDataDir(Path.of(flag[1]));
                    // The user and password stay in the environment, off the command line and its process listing.
                    case "--database-url" -> config.withDatabase(new DatabaseServer(flag[1],
                            environment.get("HEXAFLOW_DATABASE_USER"), environment.get("HEXAFLOW_DATABASE_PASSWORD")));
                    case "--url", "--token", "--workflow-id" -> {
                        remote.put(flag[0], flag[1]);
                        yield config;
                    }
                    case "--header", "--env", "--command", "--mcp", "--openapi", "--app", "--api-key",
                            "--api-key-header", "--api-key-prefix", "--api-key-query", "--secret",
                            "--secret-env", "--set", "--file", "--reset" -> {
                        toolFlags.add(flag);
                        yield config;
                    }
                    default -> throw new UsageException(flag[0] + " goes with the run and chat commands");
                };
            }
            return new Flags(config, remote, toolFlags, knowledgeId);
        }
    }

    /** The commands that open the store, or call a server about it: backups, export, tools, knowledge, the rest. */
    private static Command storeCommand(List<String> words, Flags flags, Map<String, String> environment) {
        Configuration config = flags.config();
        Map<String, String> remote = flags.remote();
        String first = words.isEmpty() ? "" : words.get(0);
        if (first.equals("backup") || first.equals("restore") || first.equals("compact")) {
            return maintenanceCommand(words, config, remote, environment);
        }
        if (words.size() == 3 && words.subList(0, 2).equals(List.of("apps", "export"))) {
            Optional<AdminServer> server = remote.containsKey("--url") ? Optional.of(server(remote, environment))
                    : Optional.empty();
            if (server.isEmpty() && remote.containsKey("--token")) {
                throw new UsageException("--token goes with --url");
            }
            return new Command.ExportApp(config, words.get(2), Optional.ofNullable(remote.get("--workflow-id")),
                    server);
        }
        if (!remote.isEmpty()) {
            throw new UsageException(remote.keySet().iterator().next() + " goes with the backup and apps export "
                    + "commands");
        }
        if (words.size() >= 2 && words.subList(0, 2).equals(List.of("apps", "limits"))) {
            return AppLimitsCommands.parse(words, flags.own(), config);
        }
        if (first.equals("tools")) {
            return ToolsCommandLine.parse(words, flags.own(), config);
        }
        if (first.equals("triggers")) {
            return TriggersCommandLine.parse(words, flags.own(), config, environment);
        }
        if (first.equals("mcp-server") && flags.own().isEmpty()) {
            return McpServerCommands.parse(words, config);
        }
        if (!flags.own().isEmpty()) {
            String flag = flags.own().get(0)[0];
            if (AppLimitsCommands.FLAGS.contains(flag)) {
                throw new UsageException(flag + " goes with the apps limits command");
            }
            throw new UsageException(flag + " goes with the " + (TriggersCommandLine.FLAGS.contains(flag)
                    ? flag.equals("--header") ? "tools and triggers auth" : "triggers auth" : "tools") + " commands");
        }
        if (first.equals("knowledge")) {
            return knowledgeCommand(words, config, flags.knowledgeId());
        }
        if (flags.knowledgeId().isPresent()) {
            throw new UsageException("--id goes with the knowledge create command");
        }
        return command(words, config);
    }

    /** backup FILE --url URL, restore FILE, compact. */
    private static Command maintenanceCommand(List<String> words, Configuration config, Map<String, String> remote,
            Map<String, String> environment) {
        switch (words.get(0)) {
            case "backup" -> {
                if (words.size() != 2 || !remote.containsKey("--url") || remote.containsKey("--workflow-id")) {
                    throw new UsageException("backup takes a file and the server: hexaflow backup FILE.zip --url URL "
                            + "[--token T]");
                }
                return new Command.Backup(Path.of(words.get(1)), server(remote, environment),
                        backupMaxRatio(environment));
            }
            case "restore" -> {
                if (words.size() != 2 || !remote.isEmpty()) {
                    throw new UsageException("restore takes a file: hexaflow restore FILE.zip --data-dir DIR");
                }
                return new Command.Restore(Path.of(words.get(1)), config, backupMaxRatio(environment));
            }
            default -> {
                if (words.size() != 1 || !remote.isEmpty()) {
                    throw new UsageException("compact takes no argument: hexaflow compact --data-dir DIR");
                }
                return new Command.Compact(config);
            }
        }
    }

    private static Command knowledgeCommand(List<String> words, Configuration config, Optional<String> id) {
        if (words.size() == 3 && words.get(1).equals("create")) {
            return new Command.CreateKnowledgeBase(config, words.get(2), id);
        }
        if (id.isPresent()) {
            throw new UsageException("--id goes with the knowledge create command");
        }
        if (words.size() >= 4 && words.get(1).equals("add")) {
            return new Command.AddKnowledgeFiles(config, words.get(2),
                    words.subList(3, words.size()).stream().map(Path::of).toList());
        }
        if (words.equals(List.of("knowledge", "list"))) {
            return new Command.ListKnowledgeBases(config);
        }
        if (words.equals(List.of("knowledge", "keys", "create"))) {
            return new Command.CreateDatasetKey(config);
        }
        if (words.size() == 4 && words.get(1).equals("bind")) {
            return new Command.BindDatasetId(config, words.get(2), words.get(3));
        }
        if (words.size() == 3 && words.get(1).equals("unbind")) {
            return new Command.UnbindDatasetId(config, words.get(2));
        }
        throw new UsageException("unknown knowledge command '" + String.join(" ", words)
                + "'; try: knowledge create NAME [--id ID] | knowledge add BASE FILE... | knowledge list"
                + " | knowledge keys create | knowledge bind DATASET_ID BASE | knowledge unbind DATASET_ID");
    }

    /** Against a zip bomb: 100 unless HEXAFLOW_BACKUP_MAX_RATIO says otherwise. */
    private static long backupMaxRatio(Map<String, String> environment) {
        String setting = environment.getOrDefault("HEXAFLOW_BACKUP_MAX_RATIO", "").strip();
        if (setting.isEmpty()) {
            return BackupModule.DEFAULT_MAX_RATIO;
        }
        try {
            long ratio = Long.parseLong(setting);
            if (ratio >= 1) {
                return ratio;
            }
        } catch (NumberFormatException e) {
            // Named below.
        }
        throw new UsageException("HEXAFLOW_BACKUP_MAX_RATIO must be a whole number of 1 or more, not '" + setting
                + "'");
    }

    private static AdminServer server(Map<String, String> remote, Map<String, String> environment) {
        URI url;
        try {
            url = URI.create(remote.get("--url").replaceAll("/+$", ""));
        } catch (IllegalArgumentException e) {
            throw new UsageException("--url is not a URL: " + remote.get("--url"));
        }
        if (!"http".equals(url.getScheme()) && !"https".equals(url.getScheme()) || url.getHost() == null) {
            throw new UsageException("--url must be an http or https URL, such as http://127.0.0.1:8080");
        }
        String token = remote.getOrDefault("--token", environment.getOrDefault("HEXAFLOW_ADMIN_TOKEN", ""));
        if (token.isBlank()) {
            throw new UsageException("the admin token is needed: set HEXAFLOW_ADMIN_TOKEN or give --token");
        }
        return new AdminServer(url, token.strip());
    }

    private static boolean isFlag(String name) {
        return List.of("--port", "--host", "--data-dir", "--database-url", "--inputs", "--user", "--query", "--url",
                "--token", "--workflow-id", "--tools", "--header", "--env", "--command", "--mcp", "--openapi",
                "--app", "--api-key", "--api-key-header", "--api-key-prefix", "--api-key-query", "--id", "--secret",
                "--secret-env", "--set", "--file").contains(name);
    }

    private static Command runCommand(List<String> words, List<String[]> flags, boolean stream) {
        if (words.size() != 2) {
            throw new UsageException("run takes one DSL file: hexaflow run FILE.yml [--inputs JSON] [--user U] "
                    + "[--query TEXT] [--stream] [--tools BINDINGS.yml] [--data-dir DIR]");
        }
        RunFlags run = RunFlags.read(flags, "run");
        return new Command.RunWorkflow(Path.of(words.get(1)), run.inputs(), run.user(), stream, run.tools(),
                run.query(), run.dataDir());
    }

    private static Command chatCommand(List<String> words, List<String[]> flags) {
        if (words.size() != 2) {
            throw new UsageException("chat takes one chatflow DSL file: hexaflow chat FILE.yml [--inputs JSON] "
                    + "[--user U] [--tools BINDINGS.yml] [--data-dir DIR]");
        }
        RunFlags chat = RunFlags.read(flags, "chat");
        if (chat.query().isPresent()) {
            throw new UsageException("--query does not go with the chat command: each line typed is a query");
        }
        return new Command.Chat(Path.of(words.get(1)), chat.inputs(), chat.user(), chat.tools(), chat.dataDir());
    }

    /** The flags that {@code run} and {@code chat} share. */
    private record RunFlags(String inputs, String user, Optional<Path> tools, Optional<String> query,
            Optional<Path> dataDir) {

        static RunFlags read(List<String[]> flags, String command) {
            String inputs = "{}";
            String user = "cli";
            Optional<Path> tools = Optional.empty();
            Optional<String> query = Optional.empty();
            Optional<Path> dataDir = Optional.empty();
            for (String[] flag : flags) {
                switch (flag[0]) {
                    case "--tools" -> tools = Optional.of(Path.of(flag[1]));
                    case "--data-dir" -> dataDir = Optional.of(Path.of(flag[1]));
                    case "--inputs" -> inputs = flag[1];
                    case "--user" -> user = flag[1];
                    case "--query" -> query = Optional.of(flag[1]);
                    default -> throw new UsageException(flag[0] + " does not go with the " + command + " command; "
                            + "it takes --inputs, --user, --tools, --data-dir" + (command.equals("run")
                                    ? ", --query and --stream" : "") + " (see hexaflow --help)");
                }
            }
            if (user.isBlank()) {
                throw new UsageException("--user must not be empty");
            }
            return new RunFlags(inputs, user, tools, query, dataDir);
        }
    }

    private static Command command(List<String> words, Configuration config) {
        if (words.isEmpty() || words.equals(List.of("serve"))) {
            return new Command.Serve(config);
        }
        if (words.equals(List.of("help"))) {
            return new Command.Help();
        }
        if (words.get(0).equals("apps")) {
            if (words.size() == 3 && words.get(1).equals("import")) {
                return new Command.ImportApp(config, Path.of(words.get(2)));
            }
            if (words.equals(List.of("apps", "list"))) {
                return new Command.ListApps(config);
            }
            if (words.size() == 4 && words.subList(0, 3).equals(List.of("apps", "keys", "create"))) {
                return new Command.CreateAppKey(config, words.get(3));
            }
            if (words.size() == 4 && words.get(1).equals("site") && List.of("on", "off").contains(words.get(3))) {
                return new Command.SwitchSite(config, words.get(2), words.get(3).equals("on"));
            }
            throw new UsageException("unknown apps command '" + String.join(" ", words)
                    + "'; try: apps import FILE.yml | apps list | apps keys create APP_ID"
                    + " | apps site APP_ID on|off | apps export APP_ID | apps limits APP_ID");
        }
        if (words.get(0).equals("campus")) {
            if (words.equals(List.of("campus", "keys", "create"))) {
                return new Command.CreateCampusKey(config);
            }
            if (words.size() == 4 && words.subList(0, 3).equals(List.of("campus", "keys", "ban"))) {
                return new Command.BanCampusKey(config, words.get(3));
            }
            if (words.size() == 4 && words.get(1).equals("import")) {
                return new Command.ImportCampusData(config, words.get(2), Path.of(words.get(3)));
            }
            throw new UsageException("unknown campus command '" + String.join(" ", words)
                    + "'; try: campus keys create | campus keys ban KEY | campus import DATASET FILE");
        }
        throw new UsageException("unknown command '" + String.join(" ", words) + "'");
    }
}
