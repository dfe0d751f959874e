package dev.hexaflow.adapters.http.admin;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hexaflow.domain.secret.SecretHash;
import io.javalin.Javalin;
import io.javalin.testtools.JavalinTest;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The admin gate on its own: what it refuses, and that a refusal leaves the connection fit for the next request. */
class AdminAuthorizationTest {

    @Test
    void aRefusedRequestWhoseBodyIsStillComingLeavesTheConnectionReadyForTheNextRequest() {
        AdminAuthorization admin = new AdminAuthorization(SecretHash.of("admin-secret"));
        Javalin app = Javalin.create(config -> {
            admin.addTo(config.routes);
            config.routes.post("/admin/apps", admin.require(ctx -> ctx.result("imported")));
        });
        JavalinTest.test(app, (server, client) -> {
            URI origin = URI.create(client.getOrigin());
            String body = "app: {name: Echo}\n".repeat(60);
            String refused = "POST /admin/apps HTTP/1.1\r\nHost: x\r\nContent-Type: application/yaml\r\n"
                    + "Content-Length: " + body.length() + "\r\n\r\n" + body;
            String allowed = "POST /admin/apps HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer admin-secret\r\n"
                    + "Content-Length: 0\r\nConnection: close\r\n\r\n";
            try (Socket socket = new Socket(origin.getHost(), origin.getPort())) {
                socket.setSoTimeout(5000);
                OutputStream out = socket.getOutputStream();
                // The body comes in two parts, as a slow network brings it: the refusal is decided on the
                // headers, before the second part is there.
                byte[] first = refused.getBytes(StandardCharsets.UTF_8);
                int half = first.length - body.length() / 2;
                out.write(first, 0, half);
                out.flush();
                Thread.sleep(300);
                out.write(first, half, first.length - half);
                out.write(allowed.getBytes(StandardCharsets.UTF_8));
                out.flush();
                String answers = readAll(socket.getInputStream());
                assertThat(answers).startsWith("HTTP/1.1 401");
                assertThat(answers).as("the second request, read as a request of its own")
                        .contains("HTTP/1.1 200").endsWith("imported");
            }
        });
    }

    @Test
    void everyPathUnderAdminIsRefusedWithoutTheTokenAndTheRouteRunsWithIt() {
        AdminAuthorization admin = new AdminAuthorization(SecretHash.of("admin-secret"));
        Javalin app = Javalin.create(config -> {
            admin.addTo(config.routes);
            config.routes.get("/admin/apps", admin.require(ctx -> ctx.result("apps")));
        });
        JavalinTest.test(app, (server, client) -> {
            assertThat(client.get("/admin/nothing-here").code()).isEqualTo(401);
            assertThat(client.get("/admin/apps", request -> request.header("Authorization", "Bearer wrong")).code())
                    .isEqualTo(401);
            var allowed = client.get("/admin/apps", request -> request.header("Authorization",
                    "Bearer admin-secret"));
            assertThat(allowed.code()).isEqualTo(200);
            assertThat(allowed.body().string()).isEqualTo("apps");
        });
    }

    private static String readAll(InputStream in) throws java.io.IOException {
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        byte[] buffer = new byte[4096];
        int read;
        while ((read = in.read(buffer)) > 0) {
            all.write(buffer, 0, read);
        }
        return all.toString(StandardCharsets.UTF_8);
    }
}
