package dev.hexaflow.application.apps.port.out;

import dev.hexaflow.domain.app.App;
import java.util.List;
import java.util.Optional;

/** Keeps apps by id. */
public interface AppRepository {

    void add(App app);

    void update(App app);

    Optional<App> find(String id);

    /** The app whose web page has this code, whether the page is on or off. */
    Optional<App> findBySiteCode(String code);

    /** Every app, oldest first. */
    List<App> list();
}
