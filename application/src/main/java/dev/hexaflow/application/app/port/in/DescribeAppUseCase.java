package dev.hexaflow.application.app.port.in;

import dev.hexaflow.domain.app.App;
import java.util.Map;

/** What an app shows of itself: its info, its parameters (input form and features), its web page settings. */
public interface DescribeAppUseCase {

    /** @throws ApiException NOT_FOUND for an unknown app */
    App app(String appId);

    /**
     * Dify's /parameters, from the newest published workflow.
     *
     * @throws ApiException APP_UNAVAILABLE when the app has no published workflow
     */
    Map<String, Object> parameters(String appId);
}
