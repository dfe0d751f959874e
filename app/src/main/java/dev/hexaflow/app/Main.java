package dev.hexaflow.app;

import dev.hexaflow.app.adapters.SecureRandomSecretGenerator;
import dev.hexaflow.app.cli.AppLimitsCommands;
import dev.hexaflow.app.cli.AppsCommands;
import dev.hexaflow.app.cli.BackupCommands;
import dev.hexaflow.app.cli.ChatCommand;
import dev.hexaflow.app.cli.Command;
import dev.hexaflow.app.cli.CommandLine;
import dev.hexaflow.app.cli.KnowledgeCommands;
import dev.hexaflow.app.cli.McpServerCommands;
import dev.hexaflow.app.cli.ToolsCommands;
import dev.hexaflow.app.cli.TriggersCommands;
import dev.hexaflow.app.cli.UsageException;
import dev.hexaflow.app.cli.WorkflowRunCommand;
import dev.hexaflow.app.wiring.CampusModule;
import dev.hexaflow.app.wiring.Storage;
import dev.hexaflow.application.campus.port.in.BanCampusKeyUseCase;
import dev.hexaflow.application.campus.port.in.ImportCampusDataCommand;
import dev.hexaflow.domain.campus.DataFileFormat;
import dev.hexaflow.domain.campus.DataSetTooLargeException;
import dev.hexaflow.domain.campus.FeedMethod;
import dev.hexaflow.domain.campus.InvalidCampusDataException;
import dev.hexaflow.engine.InvalidEngineConfigurationException;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.time.Clock;
import java.util.Arrays;
import java.util.Locale;
import java.util.Map;

/** The {@code hexaflow} program: standard output carries results, standard error carries messages and logs. */
public final class Main {

    public static final int OK = 0;
    public static final int FAILED = 1;
    public static final int USAGE = 2;

    private Main() {
    }

    /**
     * The application's warnings (a document that failed to index, a rerank endpoint down) and Flyway's go through
     * java.util.logging, whose console format spreads each over two lines: one line each instead, in the form of
     * the server's own, unless the operator chose a format.
     */
    private static void oneLineLogs() {
        if (System.getProperty(JUL_FORMAT) == null) {
            System.setProperty(JUL_FORMAT, "%1$tFT%1$tT.%1$tL%1$tz [%3$s] %4$s - %5$s%6$s%n");
        }
    }

    private static final String JUL_FORMAT = "java.util.logging.SimpleFormatter.format";

    public static void main(String[] args) {
        oneLineLogs();
        int exit;
        try {
            exit = run(args, System.getenv(), System.in, System.console() != null, System.out, System.err);
        } catch (RuntimeException | Error e) {
            // An unforeseen failure ends the process, even when a thread it started is still alive: a server that
            // could not start must never stay up answering nothing.
            System.err.println("hexaflow: failed: " + e);
            e.printStackTrace(System.err);
            System.exit(FAILED);
            return;
        }
        if (exit != OK || !serving) {
            System.exit(exit);
        }
    }

    private static volatile boolean serving;

    /** Carries out a command that reads no standard input. */
    public static int run(String[] args, Map<String, String> environment, PrintStream out, PrintStream err) {
        return run(args, environment, InputStream.nullInputStream(), false, out, err);
    }

    /**
     * Carries out the command; a server started by {@code serve} keeps running after this returns.
     *
     * @param terminal whether standard input and output are a terminal (a chat then prompts for each line)
     */
    public static int run(String[] args, Map<String, String> environment, InputStream in, boolean terminal,
            PrintStream out, PrintStream err) {
        Command command;
        try {
            command = CommandLine.parse(Arrays.asList(args), environment);
        } catch (UsageException | InvalidEngineConfigurationException e) {
            err.println("hexaflow: " + e.getMessage() + " (see hexaflow --help)");
            return USAGE;
        }
        try {
            if (command instanceof Command.RunWorkflow run) {
                return WorkflowRunCommand.execute(run, environment, out, err);
            }
            if (command instanceof Command.Chat chat) {
                return ChatCommand.execute(chat, environment, in, terminal, out, err);
            }
            return execute(command, out, err);
        } catch (UsageException | InvalidEngineConfigurationException e) {
            err.println("hexaflow: " + e.getMessage() + " (see hexaflow --help)");
            return USAGE;
        } catch (StartupException e) {
            err.println("hexaflow: " + e.getMessage());
            return FAILED;
        }
    }

    private static int execute(Command command, PrintStream out, PrintStream err) {
        if (command instanceof Command.Help) {
            out.print(CommandLine.HELP);
            return OK;
        }
        if (command instanceof Command.Version) {
            out.println("hexaflow " + CommandLine.VERSION);
            return OK;
        }
        if (command instanceof Command.Serve serve) {
            LogOutput.use(serve.config().logs().format());
            IdleHeap.giveBackWhenIdle();
            Hexaflow hexaflow = Hexaflow.start(serve.config());
            ShutdownSignals.install(hexaflow);
            serving = true;
            hexaflow.report().print(out);
            IdleHeap.giveBackTheStartsHeap();
            return OK;
        }
        if (command instanceof Command.CreateCampusKey create) {
            try (Storage storage = Storage.open(create.config()); CampusModule campus = campus(storage)) {
                out.println(campus.issueKey.issue());
                return OK;
            }
        }
        if (command instanceof Command.BanCampusKey ban) {
            try (Storage storage = Storage.open(ban.config()); CampusModule campus = campus(storage)) {
                campus.banKey.ban(ban.key());
                err.println("hexaflow: the key is banned");
                return OK;
            } catch (BanCampusKeyUseCase.UnknownCampusKeyException e) {
                err.println("hexaflow: no campus key like that was issued");
                return FAILED;
            }
        }
        Integer done = executeKnowledgeOrApps(command, out, err);
        if (done == null) {
            done = executeToolsOrBackups(command, out, err);
        }
        if (done == null) {
            done = TriggersCommands.execute(command, out, err);
        }
        if (done == null) {
            done = McpServerCommands.execute(command, out, err);
        }
        if (done == null) {
            done = AppLimitsCommands.execute(command, out, err);
        }
        if (done != null) {
            return done;
        }
        Command.ImportCampusData load = (Command.ImportCampusData) command;
        return importData(load, out, err);
    }

    /** A knowledge or apps command's exit status; null for any other command. */
    private static Integer executeKnowledgeOrApps(Command command, PrintStream out, PrintStream err) {
        if (command instanceof Command.CreateKnowledgeBase create) {
            return KnowledgeCommands.create(create, out, err);
        }
        if (command instanceof Command.AddKnowledgeFiles addFiles) {
            return KnowledgeCommands.add(addFiles, out, err);
        }
        if (command instanceof Command.ListKnowledgeBases list) {
            return KnowledgeCommands.list(list, out);
        }
        if (command instanceof Command.CreateDatasetKey createKey) {
            return KnowledgeCommands.createKey(createKey, out);
        }
        if (command instanceof Command.BindDatasetId bind) {
            return KnowledgeCommands.bind(bind, out, err);
        }
        if (command instanceof Command.UnbindDatasetId unbind) {
            return KnowledgeCommands.unbind(unbind, out, err);
        }
        if (command instanceof Command.ImportApp importApp) {
            return AppsCommands.importApp(importApp, out, err);
        }
        if (command instanceof Command.ListApps list) {
            return AppsCommands.list(list, out);
        }
        if (command instanceof Command.CreateAppKey createKey) {
            return AppsCommands.createKey(createKey, out, err);
        }
        if (command instanceof Command.ExportApp export) {
            return AppsCommands.export(export, out, err);
        }
        return null;
    }

    /** A tools, backup, restore, compact or site command's exit status; null for any other command. */
    private static Integer executeToolsOrBackups(Command command, PrintStream out, PrintStream err) {
        if (command instanceof Command.Backup backup) {
            return BackupCommands.backup(backup, out, err);
        }
        if (command instanceof Command.Restore restore) {
            return BackupCommands.restore(restore, out, err);
        }
        if (command instanceof Command.Compact compact) {
            return BackupCommands.compact(compact, out, err);
        }
        if (command instanceof Command.SwitchSite switchSite) {
            return AppsCommands.switchSite(switchSite, out, err);
        }
        if (command instanceof Command.ListTools list) {
            return ToolsCommands.list(list, out);
        }
        if (command instanceof Command.RegisterMcpServer register) {
            return ToolsCommands.register(register, out);
        }
        if (command instanceof Command.RemoveMcpServer remove) {
            return ToolsCommands.remove(remove, out, err);
        }
        if (command instanceof Command.BindTool bind) {
            return ToolsCommands.bind(bind, out, err);
        }
        if (command instanceof Command.UnbindTool unbind) {
            return ToolsCommands.unbind(unbind, out, err);
        }
        return null;
    }

    private static int importData(Command.ImportCampusData load, PrintStream out, PrintStream err) {
        FeedMethod dataSet = FeedMethod.ofDataSet(load.dataSet()).orElse(null);
        if (dataSet == null) {
            err.println("hexaflow: no campus data set '" + load.dataSet()
                    + "'; the data sets are tutors, printers and holidays");
            return USAGE;
        }
        byte[] content;
        try {
            // The bound in bytes before the file is read: a file of gigabytes is refused, not loaded.
            DataSetTooLargeException.checkBytes(Files.size(load.file()));
            content = Files.readAllBytes(load.file());
        } catch (DataSetTooLargeException e) {
            err.println("hexaflow: " + load.file() + ": " + e.getMessage() + "; nothing was changed");
            return FAILED;
        } catch (IOException e) {
            err.println("hexaflow: cannot read " + load.file() + ": " + e.getMessage());
            return USAGE;
        }
        DataFileFormat format = load.file().toString().toLowerCase(Locale.ROOT).endsWith(".json")
                ? DataFileFormat.JSON : DataFileFormat.CSV;
        try (Storage storage = Storage.open(load.config())) {
            int records = campus(storage).importData.importData(
                    ImportCampusDataCommand.replace(dataSet, format, content));
            out.println(records + " " + dataSet.resource() + " imported");
            return OK;
        } catch (InvalidCampusDataException e) {
            err.println("hexaflow: " + load.file() + ": " + e.getMessage() + "; nothing was changed");
            return FAILED;
        }
    }

    private static CampusModule campus(Storage storage) {
        return new CampusModule(storage.jdbi(), new SecureRandomSecretGenerator(), Clock.systemUTC(),
                dev.hexaflow.adapters.persistence.jdbi.WriteGate.OPEN, storage.instance().signals());
    }
}
