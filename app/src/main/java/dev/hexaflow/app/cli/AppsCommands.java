package dev.hexaflow.app.cli;

import dev.hexaflow.app.Main;
import dev.hexaflow.app.adapters.SecureRandomSecretGenerator;
import dev.hexaflow.app.config.Configuration;
import dev.hexaflow.app.wiring.Storage;
import dev.hexaflow.app.wiring.WorkflowModule;
import dev.hexaflow.application.apps.port.in.ExportDslQuery;
import dev.hexaflow.application.apps.port.in.ImportAppUseCase.ImportedApp;
import dev.hexaflow.application.apps.port.in.ListAppsUseCase.AppSummary;
import dev.hexaflow.application.common.ApiException;
import dev.hexaflow.domain.app.App;
import dev.hexaflow.domain.workflow.InvalidWorkflowException;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Clock;
import java.time.Duration;

/**
 * {@code hexaflow apps ...}: app administration on the data dir of a stopped server; an export also from a running
 * one.
 */
public final class AppsCommands {

    private AppsCommands() {
    }

    public static int importApp(Command.ImportApp command, PrintStream out, PrintStream err) {
        byte[] dsl;
        try {
            dsl = Files.readAllBytes(command.file());
        } catch (IOException e) {
            err.println("hexaflow: cannot read " + command.file() + ": " + e.getMessage());
            return Main.USAGE;
        }
        try (Storage storage = Storage.open(command.config());
                WorkflowModule workflows = module(storage, command.config())) {
            ImportedApp app = workflows.apps.importApp.importApp(dsl);
            out.println("app_id       " + app.appId());
            out.println("workflow_id  " + app.workflowId());
            out.println("api_key      " + app.apiKey() + "  (not shown again)");
            out.println("site_code    " + app.siteCode() + "  (its web page: /apps/" + app.siteCode() + ")");
            for (String warning : app.warnings()) {
                out.println("warning      " + warning);
            }
            return Main.OK;
        } catch (InvalidWorkflowException e) {
            err.println("hexaflow: " + command.file() + ": " + e.getMessage());
            return Main.USAGE;
        }
    }

    public static int list(Command.ListApps command, PrintStream out) {
        try (Storage storage = Storage.open(command.config());
                WorkflowModule workflows = module(storage, command.config())) {
            String row = "%-36s  %-36s  %-26s  %-16s  %-4s  %s%n";
            out.printf(row, "APP ID", "WORKFLOW ID", "VERSION", "SITE CODE", "PAGE", "NAME");
            for (AppSummary app : workflows.apps.listApps.list()) {
                out.printf(row, app.appId(), app.workflowId(), app.version(), app.siteCode(),
                        app.siteEnabled() ? "on" : "off", app.name());
            }
            return Main.OK;
        }
    }

    public static int createKey(Command.CreateAppKey command, PrintStream out, PrintStream err) {
        try (Storage storage = Storage.open(command.config());
                WorkflowModule workflows = module(storage, command.config())) {
            out.println(workflows.apps.keys.issue(command.appId()));
            return Main.OK;
        } catch (ApiException e) {
            err.println("hexaflow: no app " + command.appId());
            return Main.FAILED;
        }
    }

    public static int switchSite(Command.SwitchSite command, PrintStream out, PrintStream err) {
        try (Storage storage = Storage.open(command.config());
                WorkflowModule workflows = module(storage, command.config())) {
            App app = workflows.apps.updateSite.enable(command.appId(), command.enabled());
            out.println("The web page /apps/" + app.siteCode() + " is " + (app.siteEnabled() ? "on" : "off") + ".");
            return Main.OK;
        } catch (ApiException e) {
            err.println("hexaflow: no app " + command.appId());
            return Main.FAILED;
        }
    }

    /** The DSL as imported: from the data dir of a stopped server, or through a running one's admin API. */
    public static int export(Command.ExportApp command, PrintStream out, PrintStream err) {
        if (command.server().isPresent()) {
            return exportRemote(command, command.server().get(), out, err);
        }
        try (Storage storage = Storage.open(command.config());
                WorkflowModule workflows = module(storage, command.config())) {
            out.print(workflows.apps.exportDsl.export(new ExportDslQuery(command.appId(), command.workflowId()))
                    .dsl());
            out.flush();
            return Main.OK;
        } catch (ApiException e) {
            err.println("hexaflow: " + e.getMessage());
            return Main.FAILED;
        }
    }

    private static int exportRemote(Command.ExportApp command, CommandLine.AdminServer server,
            PrintStream out, PrintStream err) {
        String path = "/admin/apps/" + URLEncoder.encode(command.appId(), StandardCharsets.UTF_8) + "/dsl"
                + command.workflowId().map(id -> "?workflow_id=" + URLEncoder.encode(id, StandardCharsets.UTF_8))
                        .orElse("");
        try {
            HttpResponse<byte[]> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                    URI.create(server.url() + path)).header("Authorization", "Bearer " + server.token())
                    .timeout(Duration.ofSeconds(30)).GET().build(), HttpResponse.BodyHandlers.ofByteArray());
            if (response.statusCode() != 200) {
                err.println("hexaflow: the server answered " + response.statusCode() + ": "
                        + new String(response.body(), StandardCharsets.UTF_8).lines().findFirst().orElse(""));
                return Main.FAILED;
            }
            out.write(response.body());
            out.flush();
            return Main.OK;
        } catch (IOException e) {
            err.println("hexaflow: cannot reach " + server.url() + ": " + e.getMessage());
            return Main.FAILED;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Main.FAILED;
        }
    }

    private static WorkflowModule module(Storage storage, Configuration config) {
        return new WorkflowModule(storage.jdbi(), config.dataDir().resolve("files"), new SecureRandomSecretGenerator(),
                config, Clock.systemUTC(), storage.instance());
    }
}
