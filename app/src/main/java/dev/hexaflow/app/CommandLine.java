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
              help                         Show this help.

            The campus commands work on the data dir of a stopped server; while it runs, use the
            admin API (POST /admin/campus/keys, PUT /admin/campus/{tutors|printers|holidays}).

            Flags:
              --port N        Port to listen on; 0 picks a free one.  [HEXAFLOW_PORT, default 8080]
              --host H        Address to listen on; 0.0.0.0 for all.   [HEXAFLOW_HOST, default 127.0.0.1]
              --data-dir D    Where the database and files are kept.   [HEXAFLOW_DATA_DIR, default ./data]
              -h, --help      Show this help.

            Environment:
              HEXAFLOW_ADMIN_TOKEN   The admin API's bearer token (16 characters or more). When unset, one
                                     is made on the first start, kept in DATA_DIR/admin-token (readable by
                                     its owner only) and printed once.
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
        for (int i = 0; i < args.size(); i++) {
            String arg = args.get(i);
            if (arg.equals("-h") || arg.equals("--help")) {
                return new Command.Help();
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
        config = Configuration.fromEnvironment(environment);
        for (String[] flag : flags) {
            config = switch (flag[0]) {
                case "--port" -> config.withPort(Configuration.port(flag[1], "--port"));
                case "--host" -> config.withHost(flag[1]);
                default -> config.withDataDir(Path.of(flag[1]));
            };
        }
        return command(words, config);
    }

    private static boolean isFlag(String name) {
        return name.equals("--port") || name.equals("--host") || name.equals("--data-dir");
    }

    private static Command command(List<String> words, Configuration config) {
        if (words.isEmpty() || words.equals(List.of("serve"))) {
            return new Command.Serve(config);
        }
        if (words.equals(List.of("help"))) {
            return new Command.Help();
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
