package dev.hexaflow.application.app.port.in;

import dev.hexaflow.application.app.port.out.RunRepository.LogPage;
import dev.hexaflow.application.app.port.out.RunRepository.LogQuery;

/** Searches an app's run logs, newest first. */
public interface ListRunLogsUseCase {

    /** @throws ApiException INVALID_PARAM for a page, limit or status out of range */
    LogPage list(LogQuery query);
}
