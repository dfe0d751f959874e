package dev.hexaflow.app;

import dev.hexaflow.domain.tool.McpServer;
import dev.hexaflow.domain.tool.ToolBinding;
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

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
              apps export APP_ID           Print an app's workflow DSL as it was imported (the newest
                                           version, or --workflow-id ID); with --url, from a running
                                           server through the admin API.
              backup FILE.zip --url URL    Take a backup of the running server at URL (its database,
                                           uploaded files, admin token and a manifest with checksums)
                                           into FILE.zip; a failed backup leaves no file.
              restore FILE.zip             Check a backup whole, then unpack it into --data-dir, which
                                           must be empty or absent; a damaged or foreign file is refused
                                           and nothing is written. Start the server on it afterwards.
              compact                      Rewrite the stopped server's database in --data-dir whole, so
                                           that the space deleted and pruned runs held goes back to the
                                           file system (H2 reuses it, but its file never shrinks while
                                           the server runs); prints the file's size before and after.
              run FILE.yml                 Run a Dify workflow DSL file once, with no server and no
                                           database: prints the blocking result JSON, or with --stream
                                           the server-sent events. Exit 0 when the run succeeded, 1 when
                                           it did not, 2 for a bad file or bad inputs. With --tools
                                           BINDINGS.yml, its tools run on the MCP servers the file binds.
                                           A chatflow runs one turn with --query TEXT (empty without it):
                                           its answer printed as it streams, then the result JSON.
              chat FILE.yml                Chat with a chatflow DSL file in the terminal, with no server:
                                           each line a turn, the answer streamed, the conversation (memory,
                                           conversation variables) kept until the chat ends; the opening
                                           statement first. /new starts a new conversation, /quit or the
                                           end of input ends the chat.
              tools list                   List the MCP servers (secrets by name only) and tool bindings.
              tools server NAME URL        Register an MCP server reached over Streamable HTTP at URL,
                                           with --header NAME=VALUE for each header it needs;
              tools server NAME --command "PROGRAM ARG..."
                                           or one started as a process speaking over stdio, with
                                           --env NAME=VALUE for each variable it needs.
              tools remove-server NAME     Remove an MCP server no tool is bound to.
              tools bind PROVIDER TOOL --mcp SERVER MCP_TOOL
                                           Run a workflow's tool as a tool of a registered MCP server.
              tools bind PROVIDER TOOL --openapi DOCUMENT OPERATION_ID
                                           Or as an operation of an OpenAPI 3 document (a URL, or a
                                           file whose text is kept);
              tools bind PROVIDER TOOL --app APP_ID
                                           or as a run of another app of this server.
              tools unbind PROVIDER TOOL   Remove a tool's binding.
              knowledge create NAME        Create a knowledge base (searched by meaning with
                                           HEXAFLOW_EMBEDDING_MODEL, keyword-only without it); with
                                           --id ID, under a Dify dataset id that imported apps name.
              knowledge add BASE FILE...   Add files (txt, md, html, csv, json, pdf, docx) to a base (its
                                           id or name), with progress on stderr; a file added before and
                                           not changed since is left as it is.
              knowledge list               List the knowledge bases with their documents and chunks.
              knowledge keys create        Issue a key of the Knowledge API (/v1/datasets) and print it.
              knowledge bind DATASET_ID BASE
                                           Serve an imported app's Dify dataset id with a base (its id
                                           or name).
              knowledge unbind DATASET_ID  Remove that binding.
              help                         Show this help.

            The campus, apps, tools and knowledge commands work on the data dir of a stopped server; while it runs, use
            the admin API (POST /admin/campus/keys, PUT /admin/campus/{tutors|printers|holidays},
            POST /admin/apps, GET /admin/apps, POST /admin/apps/{id}/keys, GET /admin/backup,
            GET /admin/tools, PUT /admin/tools/servers/{name}, PUT /admin/tools/bindings,
            POST /admin/datasets/keys, POST /v1/datasets, ...).

            Flags:
              --port N        Port to listen on; 0 picks a free one.  [HEXAFLOW_PORT, default 8080]
              --host H        Address to listen on; 0.0.0.0 for all.   [HEXAFLOW_HOST, default 127.0.0.1]
              --data-dir D    Where the database and files are kept.   [HEXAFLOW_DATA_DIR, default ./data]
              --database-url jdbc:postgresql://HOST:PORT/DB
                              Keep the data in PostgreSQL instead of H2 in the data dir (uploads and the
                              knowledge index stay in the data dir).      [HEXAFLOW_DATABASE_URL]
              --inputs JSON   run, chat: the inputs, as a JSON object.    [default {}]
              --user U        run, chat: the end user (sys.user_id).      [default cli]
              --query TEXT    run: a chatflow's query (sys.query).        [default empty]
              --stream        run: print the events as the server streams them.
              --tools FILE    run, chat: the MCP servers and tool bindings of the run (YAML).
              --url URL       backup, apps export: the running server.   [e.g. http://127.0.0.1:8080]
              --token T       backup, apps export: the admin token.      [HEXAFLOW_ADMIN_TOKEN]
              --workflow-id ID  apps export: an older published version.
              -h, --help      Show this help.

            Environment:
              HEXAFLOW_ADMIN_TOKEN   The admin API's bearer token (16 characters or more). When unset, one
                                     is made on the first start, kept in DATA_DIR/admin-token (readable by
                                     its owner only) and printed once.
              HEXAFLOW_LLM_BASE_URL  An OpenAI-compatible endpoint for model nodes (…/v1); run and chat
                                     use it too.
              HEXAFLOW_LLM_API_KEY   Its key, sent as a bearer token.
              HEXAFLOW_LLM_MODELS    Model names by provider: openai=gpt-4o-mini,*=my-model.
              HEXAFLOW_TTS_MODEL     The speech model for apps with text to speech on.   [default tts-1]
              HEXAFLOW_EMBEDDING_MODEL  The embedding model of knowledge bases (the model endpoint's
                                     /embeddings); unset, bases are keyword-only.
              HEXAFLOW_RERANK_MODEL  The rerank model of searches that ask for one (the model endpoint's
                                     /rerank, Jina/Cohere style); unset, hits keep their own scores.
              HEXAFLOW_MAX_CHUNKS_PER_DOCUMENT
                                     Chunks one knowledge document may be split into (child chunks
                                     included); a document past it is refused.    [default 10000]
              HEXAFLOW_H2_OPTIONS    H2 settings over Hexaflow's own (WRITE_DELAY=0): KEY=VALUE;KEY=VALUE.
              HEXAFLOW_DATABASE_USER, HEXAFLOW_DATABASE_PASSWORD
                                     The PostgreSQL login of HEXAFLOW_DATABASE_URL (--database-url).
              HEXAFLOW_MAX_STEPS, HEXAFLOW_MAX_RUN_SECONDS, HEXAFLOW_CODE_TIMEOUT_SECONDS, HEXAFLOW_PYTHON
                                     Run limits (500 steps, 1200 s), code time limit (15 s), python3 path.
              HEXAFLOW_TEMPLATE_MAX_LOOPS
                                     Loop iterations one template render may run.  [default 1000000]
              HEXAFLOW_TOOL_TIMEOUT_SECONDS
                                     How long an MCP server may take to connect, list its tools or
                                     answer one tool call.                         [default 30]
              HEXAFLOW_DOCUMENT_MAX_CHARS, HEXAFLOW_DOCUMENT_MAX_PAGES, HEXAFLOW_DOCUMENT_MAX_INFLATED_MB
                                     What one document may give a document-extractor node or a
                                     knowledge base: characters of text, PDF pages, MB unpacked from a
                                     DOCX or a PDF's streams; past one it is refused. [4000000; 2000; 100]
              HEXAFLOW_OUTBOUND_ALLOW, HEXAFLOW_OUTBOUND_DENY
                                     Addresses, ranges or host names a workflow's requests may (not) reach;
                                     loopback, link-local and private networks are closed by default.
              HEXAFLOW_OUTBOUND_ALLOW_SELF
                                     true lets workflows call this server (and its sibling instances)
                                     at the address it serves.                   [default false]
              HEXAFLOW_CORS_ORIGINS  Origins whose pages may call /v1 from a browser.   [default *]
              HEXAFLOW_SHUTDOWN_GRACE_SECONDS
                                     How long SIGTERM lets runs in flight finish.        [default 30]
              HEXAFLOW_RUN_RETENTION_DAYS, HEXAFLOW_RUN_RETENTION_COUNT
                                     Ended runs are deleted after this many days, or past the newest this
                                     many of each app, every 10 minutes.  [default 0: kept for good]
              HEXAFLOW_WEBHOOK_RETRY_SECONDS, HEXAFLOW_WEBHOOK_GIVE_UP_HOURS, HEXAFLOW_WEBHOOK_TIMEOUT_SECONDS
                                     Completion webhooks: the waits between attempts (the last repeats),
                                     when to give up, one attempt's limit.  [10,30,60,300,900,1800,3600; 24; 10]
              HEXAFLOW_MIN_FREE_DISK_MB
                                     Free space below which new runs, uploads and
                                     knowledge writes wait.                             [default 64]
              HEXAFLOW_BACKUP_MAX_RATIO
                                     backup, restore: how many times its own size a backup may unpack to
                                     (past 64 MB); a bigger one is refused as a zip bomb.  [default 100]
              HEXAFLOW_HTTP_REQUESTS_PER_ADDRESS, HEXAFLOW_HTTP_MIN_BODY_BYTES_PER_SECOND,
              HEXAFLOW_HTTP_BODY_GRACE_MILLIS, HEXAFLOW_HTTP_IDLE_TIMEOUT_MILLIS
                                     What one client may hold (1000 requests, 1024 B/s, 5000 ms, 30000 ms).
              HEXAFLOW_MAX_TEXT_CHARS, HEXAFLOW_MAX_JSON_BODY_KB
                                     The longest text and the largest JSON body one /v1 run, chat or
                                     conversation request may send.            [200000; 4096]
              HEXAFLOW_PAGE_UPLOADS_PER_HOUR, HEXAFLOW_PAGE_UPLOAD_MB_PER_DAY
                                     What a web page's visitors may upload: files an hour each,
                                     megabytes a day for one app's page (0: no bound).   [20; 1024]
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

        /** One run of a DSL file; for a chatflow, one turn with {@code query}. */
        record RunWorkflow(Path file, String inputs, String user, boolean stream, Optional<Path> tools,
                Optional<String> query) implements Command {
        }

        /** A chat in the terminal with a chatflow, each line of standard input a turn. */
        record Chat(Path file, String inputs, String user, Optional<Path> tools) implements Command {
        }

        record ListTools(Configuration config) implements Command {
        }

        record RegisterMcpServer(Configuration config, McpServer server) implements Command {
        }

        record RemoveMcpServer(Configuration config, String name) implements Command {
        }

        record BindTool(Configuration config, ToolBinding binding) implements Command {
        }

        record UnbindTool(Configuration config, String provider, String tool) implements Command {
        }

        record CreateKnowledgeBase(Configuration config, String name, Optional<String> id) implements Command {
        }

        record AddKnowledgeFiles(Configuration config, String base, List<Path> files) implements Command {
        }

        record ListKnowledgeBases(Configuration config) implements Command {
        }

        record CreateDatasetKey(Configuration config) implements Command {
        }

        record BindDatasetId(Configuration config, String datasetId, String base) implements Command {
        }

        record UnbindDatasetId(Configuration config, String datasetId) implements Command {
        }

        record ImportApp(Configuration config, Path file) implements Command {
        }

        record ListApps(Configuration config) implements Command {
        }

        record CreateAppKey(Configuration config, String appId) implements Command {
        }

        record SwitchSite(Configuration config, String appId, boolean enabled) implements Command {
        }

        /** Export from the data dir of a stopped server, or from a running one when {@code server} is given. */
        record ExportApp(Configuration config, String appId, Optional<String> workflowId,
                Optional<AdminServer> server) implements Command {
        }

        /** @param maxRatio how many times its own size the backup may unpack to, when it is checked */
        record Backup(Path file, AdminServer server, long maxRatio) implements Command {
        }

        /** Into {@code config}'s data dir; refused when the store is a PostgreSQL server. */
        record Restore(Path file, Configuration config, long maxRatio) implements Command {
            Path dataDir() {
                return config.dataDir();
            }
        }

        record Compact(Configuration config) implements Command {
        }
    }

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
        if (!words.isEmpty() && words.get(0).equals("chat") && !stream) {
            return chatCommand(words, flags);
        }
        if (stream) {
            throw new UsageException("--stream goes with the run command"
                    + (!words.isEmpty() && words.get(0).equals("chat") ? "; chat always streams" : ""));
        }
        config = Configuration.fromEnvironment(environment);
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
                case "--header", "--env", "--command", "--mcp", "--openapi", "--app", "--api-key", "--api-key-header",
                        "--api-key-prefix", "--api-key-query" -> {
                    toolFlags.add(flag);
                    yield config;
                }
                default -> throw new UsageException(flag[0] + " goes with the run and chat commands");
            };
        }
        if (!words.isEmpty() && words.get(0).equals("backup")) {
            if (words.size() != 2 || !remote.containsKey("--url") || remote.containsKey("--workflow-id")) {
                throw new UsageException("backup takes a file and the server: hexaflow backup FILE.zip --url URL "
                        + "[--token T]");
            }
            return new Command.Backup(Path.of(words.get(1)), server(remote, environment), backupMaxRatio(environment));
        }
        if (!words.isEmpty() && words.get(0).equals("restore")) {
            if (words.size() != 2 || !remote.isEmpty()) {
                throw new UsageException("restore takes a file: hexaflow restore FILE.zip --data-dir DIR");
            }
            return new Command.Restore(Path.of(words.get(1)), config, backupMaxRatio(environment));
        }
        if (!words.isEmpty() && words.get(0).equals("compact")) {
            if (words.size() != 1 || !remote.isEmpty()) {
                throw new UsageException("compact takes no argument: hexaflow compact --data-dir DIR");
            }
            return new Command.Compact(config);
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
        if (!words.isEmpty() && words.get(0).equals("tools")) {
            return ToolsCommandLine.parse(words, toolFlags, config);
        }
        if (!toolFlags.isEmpty()) {
            throw new UsageException(toolFlags.get(0)[0] + " goes with the tools commands");
        }
        if (!words.isEmpty() && words.get(0).equals("knowledge")) {
            return knowledgeCommand(words, config, knowledgeId);
        }
        if (knowledgeId.isPresent()) {
            throw new UsageException("--id goes with the knowledge create command");
        }
        return command(words, config);
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
                "--token", "--workflow-id", "--tools", "--header", "--env", "--command", "--mcp", "--openapi", "--app", "--api-key",
                "--api-key-header", "--api-key-prefix", "--api-key-query", "--id").contains(name);
    }

    private static Command runCommand(List<String> words, List<String[]> flags, boolean stream) {
        if (words.size() != 2) {
            throw new UsageException("run takes one DSL file: hexaflow run FILE.yml [--inputs JSON] [--user U] "
                    + "[--query TEXT] [--stream] [--tools BINDINGS.yml]");
        }
        RunFlags run = RunFlags.read(flags, "run");
        return new Command.RunWorkflow(Path.of(words.get(1)), run.inputs(), run.user(), stream, run.tools(),
                run.query());
    }

    private static Command chatCommand(List<String> words, List<String[]> flags) {
        if (words.size() != 2) {
            throw new UsageException("chat takes one chatflow DSL file: hexaflow chat FILE.yml [--inputs JSON] "
                    + "[--user U] [--tools BINDINGS.yml]");
        }
        RunFlags chat = RunFlags.read(flags, "chat");
        if (chat.query().isPresent()) {
            throw new UsageException("--query does not go with the chat command: each line typed is a query");
        }
        return new Command.Chat(Path.of(words.get(1)), chat.inputs(), chat.user(), chat.tools());
    }

    /** The flags that {@code run} and {@code chat} share. */
    private record RunFlags(String inputs, String user, Optional<Path> tools, Optional<String> query) {

        static RunFlags read(List<String[]> flags, String command) {
            String inputs = "{}";
            String user = "cli";
            Optional<Path> tools = Optional.empty();
            Optional<String> query = Optional.empty();
            for (String[] flag : flags) {
                switch (flag[0]) {
                    case "--tools" -> tools = Optional.of(Path.of(flag[1]));
                    case "--inputs" -> inputs = flag[1];
                    case "--user" -> user = flag[1];
                    case "--query" -> query = Optional.of(flag[1]);
                    default -> throw new UsageException(flag[0] + " does not go with the " + command + " command");
                }
            }
            if (user.isBlank()) {
                throw new UsageException("--user must not be empty");
            }
            return new RunFlags(inputs, user, tools, query);
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
                    + " | apps site APP_ID on|off | apps export APP_ID");
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
