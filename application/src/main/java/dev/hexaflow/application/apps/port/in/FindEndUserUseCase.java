package dev.hexaflow.application.apps.port.in;

import dev.hexaflow.application.common.ApiException;
import dev.hexaflow.domain.app.EndUser;

/** One end user of an app by their id, as Dify's {@code GET /v1/end-users/{end_user_id}} finds them. */
public interface FindEndUserUseCase {

    /**
     * The end user, when they are the app's: another app's is as unknown as one that never was.
     *
     * @throws ApiException END_USER_NOT_FOUND for an unknown id or another app's end user
     */
    EndUser find(String appId, String endUserId);
}
