package dev.hexaflow.application.limits;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hexaflow.adapters.persistence.memory.InMemoryAppLimitsRepository;
import dev.hexaflow.adapters.persistence.memory.InMemoryAppRepository;
import dev.hexaflow.application.common.ApiError;
import dev.hexaflow.application.common.ApiException;
import dev.hexaflow.application.limits.service.ManageLimitsService;
import dev.hexaflow.domain.app.App;
import dev.hexaflow.domain.app.SiteSettings;
import dev.hexaflow.domain.limit.AppLimits;
import dev.hexaflow.domain.limit.Budget;
import dev.hexaflow.domain.limit.RateLimit;
import java.time.ZoneId;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ManageLimitsServiceTest {

    private static final AppLimits DEFAULTS = new AppLimits(Optional.of(new RateLimit(600, 20)), Optional.empty(),
            4, 0, 0, List.of(), AppLimits.OnCrossing.STOP, ZoneId.of("UTC"));
    private static final AppLimits OWN = new AppLimits(Optional.empty(), Optional.of(new RateLimit(10, 2)), 1, 1,
            3, List.of(new Budget(Budget.Scope.END_USER, Budget.Period.DAY, Budget.Measure.TOKENS, 5000)),
            AppLimits.OnCrossing.FINISH, ZoneId.of("Europe/Berlin"));

    private final InMemoryAppRepository apps = new InMemoryAppRepository();
    private final InMemoryAppLimitsRepository repository = new InMemoryAppLimitsRepository();
    private final ManageLimitsService limits = new ManageLimitsService(repository, apps, DEFAULTS);

    @Test
    void anAppWithoutLimitsOfItsOwnHasTheDefaultsAndItsOwnOnceSet() {
        apps.add(app("app-1"));
        apps.add(app("app-2"));
        assertThat(limits.effective("app-1")).isEqualTo(DEFAULTS);
        assertThat(limits.view("app-1").own()).isFalse();

        limits.set("app-1", OWN);

        assertThat(limits.effective("app-1")).isEqualTo(OWN);
        assertThat(limits.view("app-1").own()).isTrue();
        assertThat(limits.effective("app-2")).as("another app keeps the defaults").isEqualTo(DEFAULTS);
        assertThat(repository.find("app-1")).contains(OWN);
    }

    @Test
    void aResetGivesTheDefaultsBack() {
        apps.add(app("app-1"));
        limits.set("app-1", OWN);

        limits.reset("app-1");

        assertThat(limits.effective("app-1")).isEqualTo(DEFAULTS);
        assertThat(repository.find("app-1")).isEmpty();
    }

    @Test
    void anUnknownAppIsNotFoundAndNothingIsKept() {
        assertThatThrownBy(() -> limits.set("app-none", OWN)).isInstanceOfSatisfying(ApiException.class,
                e -> assertThat(e.error()).isEqualTo(ApiError.NOT_FOUND));
        assertThatThrownBy(() -> limits.view("app-none")).isInstanceOf(ApiException.class);
        assertThat(repository.all()).isEmpty();
    }

    @Test
    void limitsAnotherInstanceSetArriveAtTheNextReload() {
        apps.add(app("app-1"));
        repository.save("app-1", OWN); // as another instance on the same store does

        assertThat(limits.effective("app-1")).isEqualTo(DEFAULTS);
        limits.reload();
        assertThat(limits.effective("app-1")).isEqualTo(OWN);
    }

    static App app(String id) {
        return new App(id, "App " + id, "", "workflow", "emoji", "🤖", "#FFF", List.of(),
                new SiteSettings("Title", "emoji", "🤖", "#FFF", null, "desc", "©", "https://p", "", "en-US", true,
                        false), "code" + id.substring(4), true, 1);
    }
}
