package dev.hexaflow.adapters.persistence;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hexaflow.adapters.persistence.jdbi.JdbiAppRepository;
import dev.hexaflow.domain.app.App;
import java.nio.file.Path;
import java.util.List;
import org.flywaydb.core.Flyway;
import org.jdbi.v3.core.Jdbi;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Apps kept before web pages existed get a code of their own, and their pages on, when the database is upgraded. */
class SiteCodeMigrationTest {

    @TempDir
    Path dataDir;

    @Test
    void appsOfAnOlderDatabaseGetDistinctCodes() {
        String url = "jdbc:h2:" + dataDir.resolve("hexaflow").toAbsolutePath();
        Flyway.configure().dataSource(url, "sa", "").locations(H2Database.MIGRATIONS).target("4").load()
                .migrate();
        Jdbi.create(url, "sa", "").useHandle(handle -> {
            for (String id : List.of("old-1", "old-2")) {
                handle.execute("INSERT INTO app (id, name, description, mode, icon_type, tags, site, created_at) "
                        + "VALUES (?, 'Old', '', 'workflow', 'emoji', '[]', '{\"title\":\"Old\"}', 1)", id);
            }
        });

        try (H2Database database = H2Database.openFile(dataDir)) {
            List<App> apps = new JdbiAppRepository(database.jdbi()).list();

            assertThat(apps).hasSize(2).allSatisfy(app -> {
                assertThat(app.siteEnabled()).isTrue();
                assertThat(app.siteCode()).matches("[0-9a-f]{16}");
            });
            assertThat(apps.get(0).siteCode()).isNotEqualTo(apps.get(1).siteCode());
        }
    }
}
