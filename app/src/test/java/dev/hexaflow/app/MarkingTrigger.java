package dev.hexaflow.app;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import org.h2.api.Trigger;

/**
 * A trigger class that leaves a file behind when it is loaded and when it is made: what a crafted backup's database
 * makes H2 do by naming a class on the class path ({@code CREATE TRIGGER ... CALL 'class'}). The file goes into
 * {@link Markers#folder}, which a test sets before anything could load this class.
 */
public final class MarkingTrigger implements Trigger {

    static {
        Markers.mark("trigger-class-initialized");
    }

    public MarkingTrigger() {
        Markers.mark("trigger-instantiated");
    }

    @Override
    public void init(Connection conn, String schemaName, String triggerName, String tableName, boolean before,
            int type) {
    }

    @Override
    public void fire(Connection conn, Object[] oldRow, Object[] newRow) {
    }

    /** Where the marks go; a class of its own, so that setting it loads nothing of the trigger. */
    static final class Markers {
        static volatile Path folder;

        private Markers() {
        }

        static void mark(String name) {
            Path target = folder;
            if (target == null) {
                return;
            }
            try {
                Files.writeString(target.resolve(name), "ran");
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }
}
