package dev.hexaflow.application.apps.port.in;

import dev.hexaflow.application.common.ApiException;
import dev.hexaflow.domain.app.App;
import dev.hexaflow.domain.app.UploadLimits;
import dev.hexaflow.domain.workflow.DataTree;
import dev.hexaflow.domain.workflow.InputField;
import java.util.List;

/** What an app shows of itself: its info, its parameters (input form and features), its web page settings. */
public interface DescribeAppUseCase {

    /** @throws ApiException NOT_FOUND for an unknown app */
    App app(String appId);

    /**
     * The input form and features of the newest published workflow, with the server's upload limits.
     *
     * @throws ApiException NOT_FOUND for an unknown app, APP_UNAVAILABLE when it has no published workflow
     */
    AppParameters parameters(String appId);

    /**
     * @param features  the DSL's {@code features} section as written (absent features are absent here)
     * @param inputForm the start node's fields, one per input
     */
    record AppParameters(DataTree features, List<InputField> inputForm, UploadLimits uploadLimits) {
    }
}
