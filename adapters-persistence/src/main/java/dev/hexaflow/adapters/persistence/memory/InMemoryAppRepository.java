package dev.hexaflow.adapters.persistence.memory;

import dev.hexaflow.application.apps.port.out.AppRepository;
import dev.hexaflow.domain.app.App;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Apps in a map, with an index of their site codes: as in the table, an id and a site code each name one app. */
public final class InMemoryAppRepository implements AppRepository {

    private static final Comparator<App> OLDEST_FIRST = Comparator.comparingLong(App::createdAt).thenComparing(App::id);

    private final Map<String, App> apps = new HashMap<>();
    private final Map<String, String> idsBySiteCode = new HashMap<>();

    @Override
    public synchronized void add(App app) {
        if (apps.containsKey(app.id())) {
            throw new IllegalStateException("an app with id " + app.id() + " exists already");
        }
        refuseSiteCodeOfAnother(app);
        apps.put(app.id(), app);
        idsBySiteCode.put(app.siteCode(), app.id());
    }

    /** Replaces the app kept under the same id; an app never added stays absent, as an UPDATE of no row does. */
    @Override
    public synchronized void update(App app) {
        App before = apps.get(app.id());
        if (before == null) {
            return;
        }
        refuseSiteCodeOfAnother(app);
        idsBySiteCode.remove(before.siteCode());
        idsBySiteCode.put(app.siteCode(), app.id());
        apps.put(app.id(), app);
    }

    private void refuseSiteCodeOfAnother(App app) {
        String holder = idsBySiteCode.get(app.siteCode());
        if (holder != null && !holder.equals(app.id())) {
            throw new IllegalStateException("the site code " + app.siteCode() + " is app " + holder + "'s");
        }
    }

    @Override
    public synchronized Optional<App> find(String id) {
        return Optional.ofNullable(apps.get(id));
    }

    @Override
    public synchronized Optional<App> findBySiteCode(String code) {
        return Optional.ofNullable(idsBySiteCode.get(code)).map(apps::get);
    }

    @Override
    public synchronized List<App> list() {
        return apps.values().stream().sorted(OLDEST_FIRST).toList();
    }
}
