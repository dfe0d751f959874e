package dev.hexaflow.app;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Reads the words and flags of the command line into one of Hexaflow's commands. */
final class CommandLine {

    static final String HELP = """
            Usage: hexaflow [COMMAND] [FLAGS]

            Commands:
              serve                        Start the server (the default when no command is given).
              campus keys create           Issue a campus feed API key and print it.
              campus keys ban KEY          Ban a campus feed API key.
              campus import DATASET FILE   Replace a campus data set (tutors, printers or holidays)
                                           with a CSV file (header row of field names) or a JSON array.
              apps import FILE.yml         Import a Dify workflow DSL file as an app; prints its id,
                                           workflow id, first API key and web page's site code.
              apps list                    List the apps with their current workflow versions and the
                                           site codes of their web pages (/apps/SITE_CODE).
              apps keys create APP_ID      Issue another API key for an app and print it.
              apps site APP_ID on|off      Turn an app's web page on or off.
              run FILE.yml                 Run a Dify workflow DSL file once, with no server and no
                                           database: prints the blocking result JSON, or with --stream
                                           the server-sent events. Exit 0 when the run succeeded, 1 when
                                           it did not, 2 for a bad file or bad inputs.
              help                         Show this help.

            The campus and apps commands work on the data dir of a stopped server; while it runs, use the
            admin API (POST /admin/campus/keys, PUT /admin/campus/{tutors|printers|holidays},
            POST /admin/apps, GET /admin/apps, POST /admin/apps/{id}/keys, ...).

            Flags:
              --port N        Port to listen on; 0 picks a free one.  [HEXAFLOW_PORT, default 8080]
              --host H        Address to listen on; 0.0.0.0 for all.   [HEXAFLOW_HOST, default 127.0.0.1]
              --data-dir D    Where the database and files are kept.   [HEXAFLOW_DATA_DIR, default ./data]
              --inputs JSON   run: the inputs, as a JSON object.          [default {}]
              --user U        run: the end user (sys.user_id).            [default cli]
              --stream        run: print the events as the server streams them.
              -h, --help      Show this help.

            Environment:
              HEXAFLOW_ADMIN_TOKEN   The admin API's bearer token (16 characters or more). When unset, one
                                     is made on the first start, kept in DATA_DIR/admin-token (readable by
                                     its owner only) and printed once.
              HEXAFLOW_LLM_BASE_URL  An OpenAI-compatible endpoint for model nodes (…/v1).
              HEXAFLOW_LLM_API_KEY   Its key, sent as a bearer token.
              HEXAFLOW_LLM_MODELS    Model names by provider: openai=gpt-4o-mini,*=my-model.
              HEXAFLOW_TTS_MODEL     The speech model for apps with text to speech on.   [default tts-1]
              HEXAFLOW_H2_OPTIONS    H2 settings over Hexaflow's own (WRITE_DELAY=0): KEY=VALUE;KEY=VALUE.
              HEXAFLOW_MAX_STEPS, HEXAFLOW_MAX_RUN_SECONDS, HEXAFLOW_CODE_TIMEOUT_SECONDS, HEXAFLOW_PYTHON
                                     Run limits (500 steps, 1200 s), code time limit (15 s), python3 path.
              HEXAFLOW_TEMPLATE_MAX_LOOPS
                                     Loop iterations one template render may run.  [default 1000000]
            """;

    /** A command the program can carry out. */
    sealed interface Command {
        record Serve(Configuration config) implements Command {
        }

        record Help() implements Command {
        }

        record CreateCampusKey(Configuration config) implements Command {
        }

        record BanCampusKey(Configuration config, String key) implements Command {
        }

        record ImportCampusData(Configuration config, String dataSet, Path file) implements Command {
        }

        record RunWorkflow(Path file, String inputs, String user, boolean stream) implements Command {
        }

        record ImportApp(Configuration config, Path file) implements Command {
        }

        record ListApps(Configuration config) implements Command {
        }

        record CreateAppKey(Configuration config, String appId) implements Command {
        }

        record SwitchSite(Configuration config, String appId, boolean enabled) implements Command {
        }
    }

    private CommandLine() {
    }

    /**
     * Parses the arguments; flags override the environment.
     *
     * @throws UsageException naming the first thing that is wrong
     */
    static Command parse(List<String> args, Map<String, String> environment) {
        List<String> words = new ArrayList<>();
        Configuration config = null;
        List<String[]> flags = new ArrayList<>();
        boolean stream = false;
        for (int i = 0; i < args.size(); i++) {
            String arg = args.get(i);
            if (arg.equals("-h") || arg.equals("--help")) {
                return new Command.Help();
            }
            if (arg.equals("--stream")) {
                stream = true;
                continue;
            }
            if (arg.startsWith("-")) {
                String name = arg;
                String value;
                int equals = arg.indexOf('=');
                if (equals > 0) {
                    name = arg.substring(0, equals);
                    value = arg.substring(equals + 1);
                } else {
                    if (!isFlag(name)) {
                        throw new UsageException("unknown flag " + name);
                    }
                    if (i + 1 >= args.size()) {
                        throw new UsageException(name + " needs a value");
                    }
                    value = args.get(++i);
                }
                if (!isFlag(name)) {
                    throw new UsageException("unknown flag " + name);
                }
                flags.add(new String[] {name, value});
            } else {
                words.add(arg);
            }
        }
        if (!words.isEmpty() && words.get(0).equals("run")) {
            return runCommand(words, flags, stream);
        }
        if (stream) {
            throw new UsageException("--stream goes with the run command");
        }
        config = Configuration.fromEnvironment(environment);
        for (String[] flag : flags) {
            config = switch (flag[0]) {
                case "--port" -> config.withPort(Configuration.port(flag[1], "--port"));
                case "--host" -> config.withHost(flag[1]);
                case "--data-dir" -> config.withDataDir(Path.of(flag[1]));
                default -> throw new UsageException(flag[0] + " goes with the run command");
            };
        }
        return command(words, config);
    }

    private static boolean isFlag(String name) {
        return List.of("--port", "--host", "--data-dir", "--inputs", "--user").contains(name);
    }

    private static Command runCommand(List<String> words, List<String[]> flags, boolean stream) {
        if (words.size() != 2) {
            throw new UsageException("run takes one DSL file: hexaflow run FILE.yml [--inputs JSON] [--user U] "
                    + "[--stream]");
        }
        String inputs = "{}";
        String user = "cli";
        for (String[] flag : flags) {
            switch (flag[0]) {
                case "--inputs" -> inputs = flag[1];
                case "--user" -> user = flag[1];
                default -> throw new UsageException(flag[0] + " does not go with the run command");
            }
        }
        if (user.isBlank()) {
            throw new UsageException("--user must not be empty");
        }
        return new Command.RunWorkflow(Path.of(words.get(1)), inputs, user, stream);
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
                    + " | apps site APP_ID on|off");
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
