package dev.hexaflow.adapters.persistence;

import static dev.hexaflow.adapters.persistence.WorkflowFixtures.SITE;
import static dev.hexaflow.adapters.persistence.WorkflowFixtures.app;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hexaflow.application.apps.port.out.AppRepository;
import dev.hexaflow.domain.app.App;
import dev.hexaflow.domain.app.SiteSettings;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What every {@link AppRepository} promises; each adapter runs it by extending this class. */
abstract class AppRepositoryContract {

    protected abstract AppRepository repository();

    @Test
    void anAddedAppIsFoundWithEveryFieldAndAnUnknownIdFindsNothing() {
        App app = new App("a1", "First", "one", "workflow", "image", null, null, List.of("x", "y"), SITE, "code1",
                false, 10);

        repository().add(app);

        assertThat(repository().find("a1")).contains(app);
        assertThat(repository().find("nope")).isEmpty();
    }

    @Test
    void anUpdateReplacesEveryFieldOfTheApp() {
        repository().add(app("a1", "code1", 10));
        App changed = repository().find("a1").orElseThrow().describedAs("Renamed", "new", "emoji", "✨", "#000")
                .withSite(new SiteSettings("Other", "emoji", "✨", "#000", null, "", "", null, null, "en-US", false,
                        true))
                .withSiteEnabled(false);

        repository().update(changed);

        assertThat(repository().find("a1")).contains(changed);
        assertThat(repository().list()).containsExactly(changed);
    }

    @Test
    void updatingAnAppNeverAddedAddsNothing() {
        repository().update(app("ghost", "ghostcode", 10));

        assertThat(repository().find("ghost")).isEmpty();
        assertThat(repository().findBySiteCode("ghostcode")).isEmpty();
        assertThat(repository().list()).isEmpty();
    }

    @Test
    void addingAnIdTwiceIsRefusedAndTheFirstAppStays() {
        App first = app("a1", "code1", 10);
        repository().add(first);

        assertThatThrownBy(() -> repository().add(app("a1", "code2", 20))).isInstanceOf(RuntimeException.class);

        assertThat(repository().list()).containsExactly(first);
        assertThat(repository().findBySiteCode("code2")).isEmpty();
    }

    @Test
    void anAppIsFoundByItsExactSiteCodeWhetherItsPageIsOnOrOff() {
        repository().add(app("a1", "code1", 10));
        repository().add(app("a2", "code2", 20).withSiteEnabled(false));

        assertThat(repository().findBySiteCode("code1")).map(App::id).contains("a1");
        assertThat(repository().findBySiteCode("code2")).map(App::siteEnabled).contains(false);
        assertThat(repository().findBySiteCode("CODE1")).isEmpty();
        assertThat(repository().findBySiteCode("code9")).isEmpty();

        repository().update(repository().find("a1").orElseThrow().withSiteEnabled(false));

        assertThat(repository().findBySiteCode("code1")).map(App::siteEnabled).contains(false);
    }

    @Test
    void twoAppsCannotShareASiteCode() {
        repository().add(app("a1", "code1", 10));

        assertThatThrownBy(() -> repository().add(app("a3", "code1", 30))).isInstanceOf(RuntimeException.class);

        assertThat(repository().list()).extracting(App::id).containsExactly("a1");
        assertThat(repository().findBySiteCode("code1")).map(App::id).contains("a1");
    }

    @Test
    void theListIsOldestFirstAndByIdWithinTheSameSecond() {
        repository().add(app("b", "codeb", 20));
        repository().add(app("c", "codec", 10));
        repository().add(app("a", "codea", 20));

        assertThat(repository().list()).extracting(App::id).containsExactly("c", "a", "b");
    }

    @Test
    void anEmptyStoreListsNoApps() {
        assertThat(repository().list()).isEmpty();
    }
}
