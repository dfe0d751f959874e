package dev.hexaflow.app.cli;

import dev.hexaflow.app.config.Configuration;
import dev.hexaflow.domain.trigger.MissedTicks;
import dev.hexaflow.domain.trigger.WebhookAuth;
import java.util.List;
import java.util.Map;

/** Reads {@code hexaflow triggers ...}: its words, and the --header, --secret and --secret-env of {@code auth}. */
final class TriggersCommandLine {

    /** The flags of {@code triggers auth}. */
    static final List<String> FLAGS = List.of("--header", "--secret", "--secret-env");

    private static final String USAGE = "try: triggers list APP_ID | triggers enable|disable APP_ID NODE_ID | "
            + "triggers bind|unbind APP_ID NODE_ID | triggers missed-ticks APP_ID NODE_ID skip|run_once | triggers "
            + "auth APP_ID NODE_ID none|header|bearer|hmac [--header NAME] [--secret SECRET | --secret-env NAME] | "
            + "triggers new-url APP_ID NODE_ID";

    private TriggersCommandLine() {
    }

    static Command parse(List<String> words, List<String[]> flags, Configuration config,
            Map<String, String> environment) {
        String verb = words.size() > 1 ? words.get(1) : "";
        switch (verb) {
            case "list" -> {
                expect(words, 3, flags, false);
                return new Command.ListTriggers(config, words.get(2));
            }
            case "enable", "disable", "bind", "unbind" -> {
                expect(words, 4, flags, false);
                return new Command.SwitchTrigger(config, words.get(2), words.get(3),
                        verb.equals("enable") || verb.equals("bind"));
            }
            case "missed-ticks" -> {
                expect(words, 5, flags, false);
                try {
                    return new Command.SetMissedTicks(config, words.get(2), words.get(3),
                            MissedTicks.fromWireName(words.get(4)));
                } catch (IllegalArgumentException e) {
                    throw new UsageException("triggers missed-ticks: " + e.getMessage());
                }
            }
            case "auth" -> {
                expect(words, 5, flags, true);
                return new Command.SetTriggerAuth(config, words.get(2), words.get(3),
                        auth(words.get(4), flags, environment));
            }
            case "new-url" -> {
                expect(words, 4, flags, false);
                return new Command.NewTriggerUrl(config, words.get(2), words.get(3));
            }
            default -> throw new UsageException("unknown triggers command '" + String.join(" ", words) + "'; "
                    + USAGE);
        }
    }

    /**
     * The authentication {@code auth KIND} asks for: its header from --header (a header's name, or where an HMAC
     * signature goes), its secret from --secret or, kept out of the process listing, the variable --secret-env names.
     */
    private static WebhookAuth auth(String kindName, List<String[]> flags, Map<String, String> environment) {
        WebhookAuth.Kind kind;
        try {
            kind = WebhookAuth.Kind.fromWireName(kindName);
        } catch (IllegalArgumentException e) {
            throw new UsageException("triggers auth: " + e.getMessage());
        }
        String header = single(flags, "--header");
        String secret = secret(flags, environment);
        if (kind == WebhookAuth.Kind.NONE && (header != null || secret != null)) {
            throw new UsageException("triggers auth none takes no --header or secret: it leaves the URL open");
        }
        if (kind == WebhookAuth.Kind.BEARER && header != null) {
            throw new UsageException("triggers auth bearer takes no --header: the token goes in Authorization");
        }
        if (kind != WebhookAuth.Kind.NONE && secret == null) {
            throw new UsageException("triggers auth " + kind.wireName() + " needs the secret: give --secret-env NAME "
                    + "(a variable that holds it) or --secret SECRET");
        }
        if (kind == WebhookAuth.Kind.HEADER && header == null) {
            throw new UsageException("triggers auth header needs --header NAME, the header that holds the secret");
        }
        try {
            return new WebhookAuth(kind, header, secret);
        } catch (IllegalArgumentException e) {
            throw new UsageException("triggers auth: " + e.getMessage());
        }
    }

    private static String secret(List<String[]> flags, Map<String, String> environment) {
        String given = single(flags, "--secret");
        String variable = single(flags, "--secret-env");
        if (given != null && variable != null) {
            throw new UsageException("give the secret once: --secret or --secret-env, not both");
        }
        if (variable == null) {
            return given;
        }
        String value = environment.get(variable);
        if (value == null || value.isEmpty()) {
            throw new UsageException("--secret-env names " + variable + ", which is not set in the environment");
        }
        return value;
    }

    private static String single(List<String[]> flags, String name) {
        List<String> given = flags.stream().filter(flag -> flag[0].equals(name)).map(flag -> flag[1]).toList();
        if (given.size() > 1) {
            throw new UsageException(name + " is given more than once");
        }
        return given.isEmpty() ? null : given.get(0);
    }

    private static void expect(List<String> words, int count, List<String[]> flags, boolean authFlags) {
        if (words.size() != count) {
            throw new UsageException("'" + String.join(" ", words) + "' is not a triggers command; " + USAGE);
        }
        for (String[] flag : flags) {
            if (!authFlags || !FLAGS.contains(flag[0])) {
                throw new UsageException(flag[0] + " does not go with triggers " + words.get(1)
                        + (FLAGS.contains(flag[0]) ? "; it goes with triggers auth" : ""));
            }
        }
    }
}
