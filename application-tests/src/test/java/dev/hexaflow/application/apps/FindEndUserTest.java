package dev.hexaflow.application.apps;

import static dev.hexaflow.application.apps.PublishAndDescribeTest.assertRefused;
import static org.assertj.core.api.Assertions.assertThat;

import dev.hexaflow.adapters.persistence.memory.InMemoryEndUserRepository;
import dev.hexaflow.application.apps.service.FindEndUserService;
import dev.hexaflow.application.common.ApiError;
import dev.hexaflow.domain.app.EndUser;
import org.junit.jupiter.api.Test;

/** An app's end user by id, as Dify's GET /v1/end-users/{end_user_id} finds them, on the in-memory end users. */
class FindEndUserTest {

    private final InMemoryEndUserRepository endUsers = new InMemoryEndUserRepository();
    private final FindEndUserService find = new FindEndUserService(endUsers);

    @Test
    void theAppsEndUserIsFoundByTheIdItsRequestsMadeThem() {
        EndUser ada = endUsers.findOrAdd(new EndUser("e-ada", "app-1", "ada", 1_700_000_000L));

        assertThat(find.find("app-1", "e-ada")).isEqualTo(ada);
    }

    @Test
    void anotherAppsEndUserAnUnknownIdAndNoIdAreTheSameNotFound() {
        endUsers.findOrAdd(new EndUser("e-bob", "app-2", "bob", 1));

        assertRefused(() -> find.find("app-1", "e-bob"), ApiError.END_USER_NOT_FOUND, "End user not found.");
        assertRefused(() -> find.find("app-1", "e-none"), ApiError.END_USER_NOT_FOUND, "End user not found.");
        assertRefused(() -> find.find("app-1", " "), ApiError.END_USER_NOT_FOUND, "End user not found.");
        assertRefused(() -> find.find("app-1", "bob"), ApiError.END_USER_NOT_FOUND, "End user not found.");
    }
}
