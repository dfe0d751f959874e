package dev.hexaflow.application.limits.port.out;

import dev.hexaflow.domain.limit.AppLimits;
import java.util.Map;
import java.util.Optional;

/** Each app's own limits, as an operator set them; an app without a row has the server's defaults. */
public interface AppLimitsRepository {

    Optional<AppLimits> find(String appId);

    /** Every app's own limits, by app id: read once at start and after a change. */
    Map<String, AppLimits> all();

    void save(String appId, AppLimits limits);

    /** The app's own limits are forgotten: it has the server's defaults again. */
    void remove(String appId);
}
