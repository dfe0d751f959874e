package dev.hexaflow.adapters.persistence;

/**
 * H2's settings that are system properties, read once when H2's {@code SysProperties} class loads: set by the classes
 * that open H2 databases before they open any. An operator's own {@code -D} wins over each.
 */
public final class H2SystemProperties {

    static {
        // H2 looks every string it is given up in a cache of values, hashing it whole first: for the JSON text of
        // runs (kilobytes, never repeated) that is a tenth of the run writer's time, for nothing.
        setUnlessSet("h2.objectCache", "false");
        // No class may be named by a database (a trigger's, an aggregate's, a table engine's, an alias's Java method,
        // a Java object serializer): Hexaflow's schema names none, so a database that does is not Hexaflow's.
        // Defence in depth only: H2 compiles and runs an alias's or a trigger's Java source without asking this,
        // which is why a backup's database is inspected unopened before anything opens it (H2FileInspection).
        setUnlessSet("h2.allowedClasses", "");
    }

    private H2SystemProperties() {
    }

    /** Sets them, once, if nothing has yet; to be called before any H2 database is opened. */
    public static void apply() {
        // The static initializer has run by now.
    }

    private static void setUnlessSet(String name, String value) {
        if (System.getProperty(name) == null) {
            System.setProperty(name, value);
        }
    }
}
