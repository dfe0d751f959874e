package dev.hexaflow.adapters.http.admin;

import dev.hexaflow.adapters.http.JsonResponses;
import dev.hexaflow.domain.secret.SecretHash;
import io.javalin.http.Context;
import io.javalin.http.Handler;

/** Lets a request through to an admin handler only with {@code Authorization: Bearer <admin token>}. */
public final class AdminAuthorization {

    private final SecretHash adminToken;

    public AdminAuthorization(SecretHash adminToken) {
        this.adminToken = adminToken;
    }

    public Handler require(Handler handler) {
        return ctx -> {
            if (isAdmin(ctx)) {
                handler.handle(ctx);
            } else {
                ctx.header("WWW-Authenticate", "Bearer realm=\"hexaflow-admin\"");
                JsonResponses.error(ctx, 401, "unauthorized",
                        "Admin operations need the header Authorization: Bearer <admin token>.");
            }
        };
    }

    private boolean isAdmin(Context ctx) {
        String header = ctx.header("Authorization");
        if (header == null || !header.regionMatches(true, 0, "Bearer ", 0, 7)) {
            return false;
        }
        return adminToken.matches(header.substring(7).trim());
    }
}
