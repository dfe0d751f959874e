package dev.hexaflow.adapters.http.admin;

import dev.hexaflow.adapters.http.server.RouteGroup;
import dev.hexaflow.adapters.http.support.JsonResponses;
import dev.hexaflow.application.backup.port.in.BackupRefusedException;
import dev.hexaflow.application.backup.port.in.TakeBackupCommand;
import dev.hexaflow.application.backup.port.in.TakeBackupUseCase;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import java.io.IOException;
import java.io.OutputStream;
import java.time.Clock;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/**
 * {@code GET /admin/backup}: the whole data directory as a zip, streamed as it is written. A backup that fails
 * part-way ends the response cut off, without the zip's closing directory, so no client mistakes it for whole;
 * one refused before it began (the store is a PostgreSQL server) answers 409 with the reason.
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

    private void backup(Context ctx) throws IOException {
        ctx.contentType("application/zip");
        ctx.header("Content-Disposition", "attachment; filename=\"hexaflow-backup-" + STAMP.format(clock.instant())
                + ".zip\"");
        ctx.header("Cache-Control", "no-store");
        OpenedOnFirstWrite out = new OpenedOnFirstWrite(ctx);
        try {
            backup.backup(new TakeBackupCommand(out));
        } catch (BackupRefusedException e) {
            if (out.opened()) {
                throw e;
            }
            // Refused before its first byte (a store this backup does not copy): an answer, not a cut-off zip.
            ctx.res().setHeader("Content-Disposition", null);
            JsonResponses.error(ctx, 409, "backup_refused", e.getMessage());
            return;
        }
        out.flush();
    }

    /** The response's body, opened by the first byte the backup writes, so that a refusal before it can answer. */
    private static final class OpenedOnFirstWrite extends OutputStream {
        private final Context ctx;
        private OutputStream body;

        OpenedOnFirstWrite(Context ctx) {
            this.ctx = ctx;
        }

        boolean opened() {
            return body != null;
        }

        private OutputStream body() {
            if (body == null) {
                body = ctx.outputStream();
            }
            return body;
        }

        @Override
        public void write(int b) throws IOException {
            body().write(b);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            body().write(b, off, len);
        }

        @Override
        public void flush() throws IOException {
            body().flush();
        }
    }
}
