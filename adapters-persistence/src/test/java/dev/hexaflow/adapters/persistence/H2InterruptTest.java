package dev.hexaflow.adapters.persistence;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A thread interrupted while it uses the database (a sender, a pruner or a namer stopped at shutdown) fails its own
 * statement at most: the database file stays open for every other thread, and what was committed stays. Through
 * java.nio's FileChannel, an interrupt closes the channel, and H2 then closes the whole database under everyone.
 */
class H2InterruptTest {

    @TempDir
    Path dir;

    @Test
    void aThreadInterruptedWhileWritingLeavesTheDatabaseOpenForEveryoneElse() throws Exception {
        H2Database database = H2Database.openFile(dir);
        try {
            database.jdbi().useHandle(handle -> handle.execute("CREATE TABLE probe (n INT PRIMARY KEY, text "
                    + "VARCHAR(100000))"));
            AtomicReference<Throwable> failure = new AtomicReference<>();
            Thread interrupted = new Thread(() -> {
                Thread.currentThread().interrupt();
                try {
                    for (int n = 1; n <= 20; n++) {
                        int row = n;
                        database.jdbi().useHandle(handle -> handle.createUpdate("INSERT INTO probe VALUES (:n, :t)")
                                .bind("n", row).bind("t", "x".repeat(50_000)).execute());
                    }
                } catch (RuntimeException e) {
                    failure.set(e);
                }
            });
            interrupted.start();
            interrupted.join();

            database.jdbi().useHandle(handle -> handle.execute("INSERT INTO probe VALUES (100, 'after')"));
            List<Integer> kept = database.jdbi().withHandle(handle -> handle.createQuery(
                    "SELECT n FROM probe ORDER BY n").mapTo(Integer.class).list());

            assertThat(failure.get()).as("the interrupted thread's own writes").isNull();
            assertThat(kept).hasSize(21).contains(1, 20, 100);
        } finally {
            database.close();
        }
        H2Database reopened = H2Database.openFile(dir);
        try {
            int count = reopened.jdbi().withHandle(handle -> handle.createQuery("SELECT COUNT(*) FROM probe")
                    .mapTo(Integer.class).one());
            assertThat(count).isEqualTo(21);
        } finally {
            reopened.close();
        }
    }
}
