package dev.hexaflow.application.apps.service;

import dev.hexaflow.application.apps.port.in.FindEndUserUseCase;
import dev.hexaflow.application.apps.port.out.EndUserRepository;
import dev.hexaflow.application.common.ApiError;
import dev.hexaflow.application.common.ApiException;
import dev.hexaflow.domain.app.EndUser;

/** Finds an end user within the asking app alone, so that a known id of another app's user reveals nothing. */
public final class FindEndUserService implements FindEndUserUseCase {

    private final EndUserRepository endUsers;

    public FindEndUserService(EndUserRepository endUsers) {
        this.endUsers = endUsers;
    }

    @Override
    public EndUser find(String appId, String endUserId) {
        if (endUserId == null || endUserId.isBlank()) {
            throw notFound();
        }
        return endUsers.findById(appId, endUserId).orElseThrow(FindEndUserService::notFound);
    }

    private static ApiException notFound() {
        return new ApiException(ApiError.END_USER_NOT_FOUND, "End user not found.");
    }
}
