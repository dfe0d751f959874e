package dev.hexaflow.application.limits;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hexaflow.adapters.persistence.memory.InMemoryAppLimitsRepository;
import dev.hexaflow.adapters.persistence.memory.InMemoryAppRepository;
import dev.hexaflow.adapters.persistence.memory.InMemoryLimitCounters;
import dev.hexaflow.application.common.ApiError;
import dev.hexaflow.application.common.ApiException;
import dev.hexaflow.application.limits.service.ActiveRunsService;
import dev.hexaflow.application.limits.service.ManageLimitsService;
import dev.hexaflow.application.limits.service.SharedCounts;
import dev.hexaflow.application.runs.port.out.ActiveRuns.Admission;
import dev.hexaflow.domain.limit.AppLimits;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** Runs at once, admitted and given back, on one instance and across two sharing one store. */
class ActiveRunsServiceTest {

    private static final AppLimits TWO_AND_ONE_EACH = new AppLimits(Optional.empty(), Optional.empty(), 2, 1, 0,
            List.of(), AppLimits.OnCrossing.STOP, ZoneOffset.UTC);

    private final AtomicLong time = new AtomicLong(1_000);
    private final InMemoryLimitCounters store = new InMemoryLimitCounters(time::get);
    private final SharedCounts firstCounts = new SharedCounts();
    private final SharedCounts secondCounts = new SharedCounts();
    private final ActiveRunsService first = service(firstCounts, TWO_AND_ONE_EACH);
    private final ActiveRunsService second = service(secondCounts, TWO_AND_ONE_EACH);

    private static ActiveRunsService service(SharedCounts counts, AppLimits defaults) {
        return new ActiveRunsService(new ManageLimitsService(new InMemoryAppLimitsRepository(),
                new InMemoryAppRepository(), defaults), counts);
    }

    @Test
    void pastTheAppsLimitARunIsRefusedInDifysWordsAndAnEndedRunGivesItsPlaceBackOnce() {
        Admission ada = first.admit("app", "ada");
        first.admit("app", "bob");

        assertThatThrownBy(() -> first.admit("app", "eve")).isInstanceOfSatisfying(ApiException.class, e -> {
            assertThat(e.error()).isEqualTo(ApiError.TOO_MANY_REQUESTS);
            assertThat(e.getMessage()).isEqualTo("Too many requests. Please try again later. The current maximum "
                    + "concurrent requests allowed for app is 2.");
        });
        ada.release();
        ada.release();
        first.admit("app", "eve");
        assertThat(firstCounts.gauge(ActiveRunsService.appKey("app")).get()).isEqualTo(2);
    }

    @Test
    void anEndUserPastItsLimitIsRefusedWithoutTakingTheAppsPlace() {
        first.admit("app", "ada");

        assertThatThrownBy(() -> first.admit("app", "ada")).isInstanceOfSatisfying(ApiException.class, e ->
                assertThat(e.getMessage()).endsWith("allowed for each end user of app is 1."));
        assertThat(firstCounts.gauge(ActiveRunsService.appKey("app")).get()).isEqualTo(1);
        first.admit("app", "bob");
    }

    @Test
    void anAppWithoutLimitsAdmitsEveryRunAndStillCountsThem() {
        ActiveRunsService unlimited = service(firstCounts, AppLimits.NONE);
        for (int i = 0; i < 50; i++) {
            unlimited.admit("app", "ada");
        }
        assertThat(firstCounts.gauge(ActiveRunsService.appKey("app")).get()).isEqualTo(50);
        assertThat(firstCounts.gauge(ActiveRunsService.userKey("app", "ada")).get()).as("no gauge per end user")
                .isZero();
    }

    @Test
    void onceExchangedOneInstancesRunsBlockTheOthersAndTheirEndsFreeIt() {
        first.admit("app", "ada");
        Admission bob = first.admit("app", "bob");
        // Within an exchange interval the second does not know of them: the stated error bound.
        Admission early = second.admit("app", "carl");
        early.release();

        firstCounts.exchangeWith(store, "one", 10_000);
        secondCounts.exchangeWith(store, "two", 10_000);
        assertThatThrownBy(() -> second.admit("app", "carl")).isInstanceOf(ApiException.class);
        assertThatThrownBy(() -> second.admit("app", "ada")).as("ada's own limit holds across instances too")
                .isInstanceOf(ApiException.class);

        bob.release();
        firstCounts.exchangeWith(store, "one", 10_000);
        secondCounts.exchangeWith(store, "two", 10_000);
        second.admit("app", "carl");
        secondCounts.exchangeWith(store, "two", 10_000);
        firstCounts.exchangeWith(store, "one", 10_000);
        assertThatThrownBy(() -> first.admit("app", "dan")).isInstanceOf(ApiException.class);
    }
}
