package dev.hexaflow.app.cli;

import dev.hexaflow.app.Main;
import dev.hexaflow.app.adapters.SecureRandomSecretGenerator;
import dev.hexaflow.app.config.Configuration;
import dev.hexaflow.app.wiring.Storage;
import dev.hexaflow.app.wiring.TriggersModule;
import dev.hexaflow.application.common.ApiError;
import dev.hexaflow.application.common.ApiException;
import dev.hexaflow.application.triggers.port.in.ManageTriggersUseCase;
import dev.hexaflow.application.triggers.port.in.ManageTriggersUseCase.TriggerView;
import dev.hexaflow.domain.trigger.MissedTicks;
import dev.hexaflow.domain.trigger.Trigger;
import dev.hexaflow.domain.trigger.TriggerKind;
import dev.hexaflow.domain.trigger.WebhookAuth;
import java.io.PrintStream;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.function.Function;

/**
 * {@code hexaflow triggers ...}: an app's triggers on the data dir of a stopped server (while it runs, the admin API
 * does the same). A webhook's secret is never printed.
 */
public final class TriggersCommands {

    private static final DateTimeFormatter WHEN = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss xxx");
    private static final String ROW = "%-24s  %-8s  %-3s  %-12s  %-28s  %s%n";

    private TriggersCommands() {
    }

    /** A triggers command's exit status; null for any other command. */
    public static Integer execute(Command command, PrintStream out, PrintStream err) {
        if (command instanceof Command.ListTriggers list) {
            return run(list.config(), err, triggers -> list(triggers.list(list.appId()), out));
        }
        if (command instanceof Command.SwitchTrigger change) {
            return run(change.config(), err, triggers -> switched(triggers.setEnabled(change.appId(),
                    change.nodeId(), change.enabled()), out));
        }
        if (command instanceof Command.SetMissedTicks change) {
            return run(change.config(), err, triggers -> missedTicks(triggers.setMissedTicks(change.appId(),
                    change.nodeId(), change.policy()), out));
        }
        if (command instanceof Command.SetTriggerAuth change) {
            return run(change.config(), err, triggers -> auth(triggers.setAuth(change.appId(), change.nodeId(),
                    change.auth()), out));
        }
        if (command instanceof Command.NewTriggerUrl change) {
            return run(change.config(), err, triggers -> newUrl(triggers.newUrl(change.appId(), change.nodeId()),
                    out));
        }
        return null;
    }

    /** Opens the store, carries out {@code task} with the use case, and says a refusal in one line. */
    private static int run(Configuration config, PrintStream err, Function<ManageTriggersUseCase, Integer> task) {
        try (Storage storage = Storage.open(config)) {
            return task.apply(TriggersModule.management(storage.jdbi(), new SecureRandomSecretGenerator(),
                    Clock.systemUTC()));
        } catch (ApiException e) {
            err.println("hexaflow: " + e.getMessage() + (e.error() == ApiError.NOT_FOUND
                    ? " (see hexaflow apps list for the apps, hexaflow triggers list APP_ID for an app's triggers)"
                    : ""));
            return Main.FAILED;
        }
    }

    private static int list(List<TriggerView> views, PrintStream out) {
        out.printf(ROW, "NODE ID", "KIND", "ON", "MISSED TICKS", "AUTH (NO SECRET SHOWN)", "URL PATH OR SCHEDULE");
        for (TriggerView view : views) {
            Trigger t = view.trigger();
            boolean schedule = t.schedule() != null;
            out.printf(ROW, t.nodeId(), t.kind().triggeredFrom(), t.enabled() ? "on" : "off",
                    schedule ? t.missedTicks().wireName() : "-", schedule ? "-" : auth(t.auth()),
                    schedule ? t.schedule().cron() + " (" + t.schedule().zone().getId() + ")" : view.path());
            if (schedule) {
                out.println("    next: " + (view.nextFires().isEmpty() ? "none while off"
                        : String.join(", ", view.nextFires().stream().map(at -> when(at, t.schedule().zone()))
                                .toList())));
            }
        }
        if (views.isEmpty()) {
            out.println("(the app's published workflow has no trigger node)");
        }
        return Main.OK;
    }

    private static int switched(TriggerView view, PrintStream out) {
        Trigger t = view.trigger();
        String name = t.kind().triggeredFrom() + " trigger " + t.nodeId();
        if (!t.enabled()) {
            out.println("The " + name + " is " + (t.kind() == TriggerKind.PLUGIN ? "unbound" : "off")
                    + ": it starts no run.");
        } else if (t.schedule() != null) {
            out.println("The " + name + " is on; it fires next at " + when(view.nextFires().get(0),
                    t.schedule().zone()) + ".");
        } else {
            out.println("The " + name + " is " + (t.kind() == TriggerKind.PLUGIN ? "bound" : "on") + ": calls to "
                    + view.path() + " start runs.");
        }
        return Main.OK;
    }

    private static int missedTicks(TriggerView view, PrintStream out) {
        Trigger t = view.trigger();
        out.println("The schedule trigger " + t.nodeId() + (t.missedTicks() == MissedTicks.RUN_ONCE
                ? " runs once, on the first poll after a start, for the ticks it missed while no server was up."
                : " skips the ticks it missed while no server was up."));
        return Main.OK;
    }

    private static int auth(TriggerView view, PrintStream out) {
        Trigger t = view.trigger();
        out.println("The " + t.kind().triggeredFrom() + " trigger " + t.nodeId() + " " + admits(t.auth())
                + (t.auth().kind() == WebhookAuth.Kind.NONE ? "" : " The secret is not shown again."));
        return Main.OK;
    }

    private static String admits(WebhookAuth auth) {
        return switch (auth.kind()) {
            case NONE -> "takes calls from anyone with its URL.";
            case HEADER -> "takes only calls whose " + auth.headerName() + " header holds the secret.";
            case BEARER -> "takes only calls with the secret as a bearer token (Authorization: Bearer ...).";
            case HMAC -> "takes only calls whose " + auth.headerName() + " header holds the body's HMAC-SHA256 with "
                    + "the secret, in hex.";
        };
    }

    private static int newUrl(TriggerView view, PrintStream out) {
        out.println("The " + view.trigger().kind().triggeredFrom() + " trigger " + view.trigger().nodeId()
                + " is called at " + view.path() + " now; its old URL no longer answers.");
        return Main.OK;
    }

    /** The kind and, where it is the operator's choice, the header; never the secret. */
    private static String auth(WebhookAuth auth) {
        return auth.kind() == WebhookAuth.Kind.HEADER || auth.kind() == WebhookAuth.Kind.HMAC
                ? auth.kind().wireName() + " " + auth.headerName() : auth.kind().wireName();
    }

    /** A fire time on the schedule's own clock, as its cron reads. */
    private static String when(long epochSecond, ZoneId zone) {
        return WHEN.format(Instant.ofEpochSecond(epochSecond).atZone(zone));
    }
}
