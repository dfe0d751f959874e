package dev.hexaflow.app.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hexaflow.app.cli.CommandLine;
import dev.hexaflow.app.cli.UsageException;
import dev.hexaflow.domain.limit.AppLimits;
import dev.hexaflow.domain.limit.Budget;
import dev.hexaflow.domain.limit.RateLimit;
import dev.hexaflow.domain.limit.TokenPrice;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZoneId;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The server-wide default limits: off unless set, read from the environment, each mistake refused by name. */
class LimitSettingsTest {

    private static final List<String> SETTINGS = List.of("HEXAFLOW_LIMIT_RATE_PER_KEY",
            "HEXAFLOW_LIMIT_RATE_PER_END_USER", "HEXAFLOW_LIMIT_ACTIVE_RUNS", "HEXAFLOW_LIMIT_ACTIVE_RUNS_PER_END_USER",
            "HEXAFLOW_LIMIT_QUEUED_RUNS", "HEXAFLOW_LIMIT_BUDGETS", "HEXAFLOW_LIMIT_ON_CROSSING",
            "HEXAFLOW_LIMIT_TIME_ZONE", "HEXAFLOW_LIMITS_SYNC_MILLIS", "HEXAFLOW_LLM_PRICE_INPUT_PER_MILLION",
            "HEXAFLOW_LLM_PRICE_OUTPUT_PER_MILLION");

    @Test
    void offUnlessSet() {
        assertThat(LimitSettings.fromEnvironment(Map.of())).isEqualTo(LimitSettings.DEFAULTS);
        assertThat(Configuration.fromEnvironment(Map.of()).limits().defaults()).isEqualTo(AppLimits.NONE);
        assertThat(LimitSettings.DEFAULTS.sync()).isEqualTo(Duration.ofMillis(500));
    }

    @Test
    void everyFieldReadFromTheEnvironment() {
        LimitSettings settings = Configuration.fromEnvironment(Map.of("HEXAFLOW_LIMIT_RATE_PER_KEY", "60/10",
                "HEXAFLOW_LIMIT_RATE_PER_END_USER", "20", "HEXAFLOW_LIMIT_ACTIVE_RUNS", "8",
                "HEXAFLOW_LIMIT_ACTIVE_RUNS_PER_END_USER", "2",
                "HEXAFLOW_LIMIT_BUDGETS", "app:month:tokens:5000000, end_user:day:tokens:20000,key:day:price:1.25",
                "HEXAFLOW_LIMIT_ON_CROSSING", "finish", "HEXAFLOW_LIMIT_TIME_ZONE", "Europe/Berlin",
                "HEXAFLOW_LIMITS_SYNC_MILLIS", "250", "HEXAFLOW_LLM_PRICE_INPUT_PER_MILLION", "0.15",
                "HEXAFLOW_LLM_PRICE_OUTPUT_PER_MILLION", "0.6")).limits();
        assertThat(settings).isEqualTo(new LimitSettings(new AppLimits(Optional.of(new RateLimit(60, 10)),
                Optional.of(new RateLimit(20, 20)), 8, 2, 0, List.of(
                        new Budget(Budget.Scope.APP, Budget.Period.MONTH, Budget.Measure.TOKENS, 5_000_000),
                        new Budget(Budget.Scope.END_USER, Budget.Period.DAY, Budget.Measure.TOKENS, 20_000),
                        new Budget(Budget.Scope.KEY, Budget.Period.DAY, Budget.Measure.PRICE_MICROS, 1_250_000)),
                AppLimits.OnCrossing.FINISH, ZoneId.of("Europe/Berlin")), Duration.ofMillis(250),
                new TokenPrice(0.15, 0.6)));
    }

    @Test
    void eachBadValueIsRefusedNamingItsSetting() {
        refused("HEXAFLOW_LIMIT_RATE_PER_KEY", "0/10", "at least 1 request a minute");
        refused("HEXAFLOW_LIMIT_RATE_PER_KEY", "60/0", "burst must be at least 1");
        refused("HEXAFLOW_LIMIT_RATE_PER_END_USER", "60/10/2", "PER_MINUTE/BURST");
        refused("HEXAFLOW_LIMIT_RATE_PER_END_USER", "fast", "whole number");
        refused("HEXAFLOW_LIMIT_ACTIVE_RUNS", "-1", "0 (no limit) or more");
        refused("HEXAFLOW_LIMIT_ACTIVE_RUNS_PER_END_USER", "two", "whole number");
        refused("HEXAFLOW_LIMIT_QUEUED_RUNS", "4", "must be 0");
        refused("HEXAFLOW_LLM_PRICE_INPUT_PER_MILLION", "-0.1", "0 or more");
        refused("HEXAFLOW_LLM_PRICE_OUTPUT_PER_MILLION", "cheap", "price per million tokens");
        refused("HEXAFLOW_LIMIT_BUDGETS", "team:day:tokens:5", "scope must be one of [app, key, end_user]");
        refused("HEXAFLOW_LIMIT_BUDGETS", "app:week:tokens:5", "period must be one of [day, month]");
        refused("HEXAFLOW_LIMIT_BUDGETS", "app:day:words:5", "measure must be tokens or price");
        refused("HEXAFLOW_LIMIT_BUDGETS", "app:day:tokens:2.5", "whole number");
        refused("HEXAFLOW_LIMIT_BUDGETS", "app:day:tokens:0", "above 0");
        refused("HEXAFLOW_LIMIT_BUDGETS", "app:day:tokens", "SCOPE:PERIOD:MEASURE:AMOUNT");
        refused("HEXAFLOW_LIMIT_ON_CROSSING", "explode", "must be one of [stop, finish]");
        refused("HEXAFLOW_LIMIT_TIME_ZONE", "Mars/Olympus", "time zone");
        refused("HEXAFLOW_LIMITS_SYNC_MILLIS", "49", "between 50 and 60000");
        refused("HEXAFLOW_LIMITS_SYNC_MILLIS", "60001", "between 50 and 60000");
    }

    @Test
    void theSettingsPageAndTheHelpNameEachOne() throws IOException {
        Path root = Path.of(System.getProperty("hexaflow.root", "..")).toAbsolutePath().normalize();
        String text = Files.readString(root.resolve("docs/reference/settings.md"));
        for (String setting : SETTINGS) {
            assertThat(text).as(setting).contains("| `" + setting + "` |");
            assertThat(CommandLine.HELP).as(setting).contains(setting);
        }
    }

    private static void refused(String setting, String value, String reason) {
        assertThatThrownBy(() -> Configuration.fromEnvironment(Map.of(setting, value)))
                .isInstanceOf(UsageException.class).hasMessageStartingWith(setting).hasMessageContaining(reason);
    }
}
