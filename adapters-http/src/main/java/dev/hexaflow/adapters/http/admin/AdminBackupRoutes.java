package dev.hexaflow.adapters.http.admin;

import dev.hexaflow.adapters.http.RouteGroup;
import dev.hexaflow.application.backup.port.in.TakeBackupCommand;
import dev.hexaflow.application.backup.port.in.TakeBackupUseCase;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import java.time.Clock;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/**
 * {@code GET /admin/backup}: the whole data directory as a zip, streamed as it is written. A backup that fails
 * part-way ends the response cut off, without the zip's closing directory, so no client mistakes it for whole.
 */
public final class AdminBackupRoutes implements RouteGroup {

    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")
            .withZone(ZoneOffset.UTC);

    private final AdminAuthorization admin;
    private final TakeBackupUseCase backup;
    private final Clock clock;

    public AdminBackupRoutes(AdminAuthorization admin, TakeBackupUseCase backup, Clock clock) {
        this.admin = admin;
        this.backup = backup;
        this.clock = clock;
    }

    @Override
    public void addTo(RoutesConfig routes) {
        routes.get("/admin/backup", admin.require(this::backup));
    }

    private void backup(Context ctx) throws java.io.IOException {
        ctx.contentType("application/zip");
        ctx.header("Content-Disposition", "attachment; filename=\"hexaflow-backup-" + STAMP.format(clock.instant())
                + ".zip\"");
        ctx.header("Cache-Control", "no-store");
        var out = ctx.outputStream();
        backup.backup(new TakeBackupCommand(out));
        out.flush();
    }
}
