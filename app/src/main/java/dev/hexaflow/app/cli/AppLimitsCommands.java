package dev.hexaflow.app.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.hexaflow.adapters.http.limits.LimitsJson;
import dev.hexaflow.adapters.persistence.jdbi.JdbiAppLimitsRepository;
import dev.hexaflow.adapters.persistence.jdbi.JdbiAppRepository;
import dev.hexaflow.app.Main;
import dev.hexaflow.app.config.Configuration;
import dev.hexaflow.app.wiring.Storage;
import dev.hexaflow.application.common.ApiError;
import dev.hexaflow.application.common.ApiException;
import dev.hexaflow.application.limits.port.in.ManageLimitsUseCase;
import dev.hexaflow.application.limits.port.in.ManageLimitsUseCase.LimitsView;
import dev.hexaflow.application.limits.service.ManageLimitsService;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code hexaflow apps limits APP_ID [--set JSON | --file FILE | --reset]}: an app's limits on the data dir of a
 * stopped server (while it runs, {@code /admin/apps/{app_id}/limits} does the same), in the admin API's JSON.
 */
public final class AppLimitsCommands {

    /** The flags of this command alone. */
    static final List<String> FLAGS = List.of("--set", "--file", "--reset");

    private static final String USAGE = "try: apps limits APP_ID [--set JSON | --file FILE.json | --reset]";
    private static final ObjectMapper JSON = new ObjectMapper();

    private AppLimitsCommands() {
    }

    static Command parse(List<String> words, List<String[]> flags, Configuration config) {
        if (words.size() != 3) {
            throw new UsageException("apps limits takes one app id; " + USAGE);
        }
        String appId = words.get(2);
        if (flags.size() > 1) {
            throw new UsageException("--set, --file and --reset go one at a time; " + USAGE);
        }
        if (flags.isEmpty()) {
            return new Command.ShowAppLimits(config, appId);
        }
        String[] flag = flags.get(0);
        return switch (flag[0]) {
            case "--reset" -> new Command.ResetAppLimits(config, appId);
            case "--set" -> new Command.SetAppLimits(config, appId, Optional.of(flag[1]), Optional.empty());
            case "--file" -> new Command.SetAppLimits(config, appId, Optional.empty(), Optional.of(Path.of(flag[1])));
            default -> throw new UsageException(flag[0] + " does not go with apps limits; " + USAGE);
        };
    }

    /** An apps limits command's exit status; null for any other command. */
    public static Integer execute(Command command, PrintStream out, PrintStream err) {
        if (command instanceof Command.ShowAppLimits show) {
            return run(show.config(), show.appId(), out, err, limits -> limits.view(show.appId()));
        }
        if (command instanceof Command.ResetAppLimits reset) {
            return run(reset.config(), reset.appId(), out, err, limits -> {
                limits.reset(reset.appId());
                return limits.view(reset.appId());
            });
        }
        if (command instanceof Command.SetAppLimits set) {
            Map<String, Object> body;
            try {
                body = body(set);
            } catch (IOException e) {
                err.println("hexaflow: " + e.getMessage());
                return Main.FAILED;
            }
            return run(set.config(), set.appId(), out, err, limits -> {
                limits.set(set.appId(), LimitsJson.read(body));
                return limits.view(set.appId());
            });
        }
        return null;
    }

    private static Map<String, Object> body(Command.SetAppLimits set) throws IOException {
        String text;
        if (set.file().isPresent()) {
            try {
                text = Files.readString(set.file().get());
            } catch (IOException e) {
                throw new IOException("cannot read " + set.file().get() + ": " + e.getClass().getSimpleName(), e);
            }
        } else {
            text = set.json().orElseThrow();
        }
        Object value;
        try {
            value = JSON.readValue(text, Object.class);
        } catch (JsonProcessingException e) {
            throw new IOException("the limits are not JSON: " + e.getOriginalMessage(), e);
        }
        if (!(value instanceof Map<?, ?> map)) {
            throw new IOException("the limits must be a JSON object, such as {\"active_runs\": 8}");
        }
        Map<String, Object> body = new LinkedHashMap<>();
        map.forEach((key, item) -> body.put(String.valueOf(key), item));
        return body;
    }

    private interface Task {
        LimitsView apply(ManageLimitsUseCase limits);
    }

    private static int run(Configuration config, String appId, PrintStream out, PrintStream err, Task task) {
        try (Storage storage = Storage.open(config)) {
            ManageLimitsService limits = new ManageLimitsService(new JdbiAppLimitsRepository(storage.jdbi()),
                    new JdbiAppRepository(storage.jdbi()), config.limits().defaults());
            limits.reload();
            LimitsView view = task.apply(limits);
            Map<String, Object> shown = new LinkedHashMap<>();
            shown.put("app_id", view.appId());
            shown.put("own", view.own());
            shown.put("limits", LimitsJson.of(view.limits()));
            out.println(JSON.writerWithDefaultPrettyPrinter().writeValueAsString(shown));
            return Main.OK;
        } catch (ApiException e) {
            err.println("hexaflow: " + e.getMessage() + (e.error() == ApiError.NOT_FOUND
                    ? " (see hexaflow apps list for the apps)" : ""));
            return Main.FAILED;
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("the limits could not be written as JSON", e);
        }
    }
}
