package dev.hexaflow.adapters.nodes.fakes;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A mail server on loopback that speaks just enough SMTP for a client's tests: greeting, EHLO with AUTH PLAIN and
 * LOGIN, MAIL, RCPT, DATA, RSET, QUIT. It keeps each message it accepts as the wire carried it and as a server
 * reads it (dot-stuffing undone), and each login; it can refuse a recipient with 550, or never say a word. Shared
 * with the mailer's tests in adapters-clients and the server's in app.
 */
public final class LoopbackSmtpServer implements AutoCloseable {

    /** A message accepted: its envelope, its DATA lines as sent (dot-stuffed) and as meant. */
    public record Received(String mailFrom, List<String> rcptTo, String wire, String data) {
    }

    /** A login as the client sent it. */
    public record Login(String mechanism, String user, String password) {
    }

    private final ServerSocket socket;
    private final boolean silent;
    private final List<Socket> clients = new CopyOnWriteArrayList<>();
    private final List<Received> received = new CopyOnWriteArrayList<>();
    private final List<Login> logins = new CopyOnWriteArrayList<>();
    private final Set<String> refused = ConcurrentHashMap.newKeySet();
    private volatile String offered = "PLAIN LOGIN";
    private volatile String password;

    private LoopbackSmtpServer(boolean silent) {
        this.silent = silent;
        try {
            socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Thread acceptor = new Thread(this::accept, "loopback-smtp");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    /** A server that answers. */
    public static LoopbackSmtpServer start() {
        return new LoopbackSmtpServer(false);
    }

    /** A server that takes the connection and never answers anything. */
    public static LoopbackSmtpServer silent() {
        return new LoopbackSmtpServer(true);
    }

    public int port() {
        return socket.getLocalPort();
    }

    /** Answers RCPT TO for this address with 550. */
    public LoopbackSmtpServer refuse(String recipient) {
        refused.add(recipient);
        return this;
    }

    /** The AUTH mechanisms EHLO offers ("PLAIN LOGIN" unless told). */
    public LoopbackSmtpServer offering(String mechanisms) {
        offered = mechanisms;
        return this;
    }

    /** Refuses a login (535) unless it comes with this password. */
    public LoopbackSmtpServer password(String expected) {
        password = expected;
        return this;
    }

    public List<Received> received() {
        return List.copyOf(received);
    }

    public List<Login> logins() {
        return List.copyOf(logins);
    }

    @Override
    public void close() throws IOException {
        socket.close();
        for (Socket client : clients) {
            client.close();
        }
    }

    private void accept() {
        while (!socket.isClosed()) {
            try {
                Socket client = socket.accept();
                clients.add(client);
                if (!silent) {
                    Thread session = new Thread(() -> session(client), "loopback-smtp-session");
                    session.setDaemon(true);
                    session.start();
                }
            } catch (IOException e) {
                return; // closed
            }
        }
    }

    private void session(Socket client) {
        try (client) {
            new Session(new BufferedReader(new InputStreamReader(client.getInputStream(), StandardCharsets.UTF_8)),
                    client.getOutputStream()).run();
        } catch (IOException e) {
            // The client went away: the session ends with it.
        }
    }

    /** One client's session: its envelope so far and its replies. */
    private final class Session {

        private final BufferedReader in;
        private final OutputStream out;
        private String mailFrom;
        private final List<String> rcptTo = new ArrayList<>();

        Session(BufferedReader in, OutputStream out) {
            this.in = in;
            this.out = out;
        }

        void run() throws IOException {
            reply("220 loopback ESMTP ready");
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                String verb = line.split(" ", 2)[0].toUpperCase(Locale.ROOT);
                switch (verb) {
                    case "EHLO" -> reply("250-loopback greets " + line.substring(4).strip() + "\r\n250-AUTH "
                            + offered + "\r\n250 8BITMIME");
                    case "HELO", "NOOP" -> reply("250 OK");
                    case "AUTH" -> auth(line);
                    case "MAIL" -> {
                        mailFrom = between(line);
                        rcptTo.clear();
                        reply("250 2.1.0 OK");
                    }
                    case "RCPT" -> rcpt(between(line));
                    case "DATA" -> data();
                    case "RSET" -> {
                        mailFrom = null;
                        rcptTo.clear();
                        reply("250 2.0.0 OK");
                    }
                    case "QUIT" -> {
                        reply("221 2.0.0 Bye");
                        return;
                    }
                    default -> reply("500 5.5.2 unknown command");
                }
            }
        }

        private void auth(String line) throws IOException {
            String[] words = line.split(" ");
            String mechanism = words.length > 1 ? words[1].toUpperCase(Locale.ROOT) : "";
            if (mechanism.equals("PLAIN")) {
                String response = words.length > 2 ? words[2] : ask("");
                String[] parts = decode(response).split("\0", -1);
                loggedIn(new Login("PLAIN", parts[1], parts[2]));
            } else if (mechanism.equals("LOGIN")) {
                String user = decode(ask("VXNlcm5hbWU6"));
                loggedIn(new Login("LOGIN", user, decode(ask("UGFzc3dvcmQ6"))));
            } else {
                reply("504 5.5.4 unrecognized authentication type");
            }
        }

        private void loggedIn(Login login) throws IOException {
            logins.add(login);
            if (password != null && !password.equals(login.password())) {
                reply("535 5.7.8 Error: authentication failed");
            } else {
                reply("235 2.7.0 Authentication successful");
            }
        }

        private void rcpt(String recipient) throws IOException {
            if (refused.contains(recipient)) {
                reply("550 5.1.1 <" + recipient + ">: Recipient address rejected: User unknown");
            } else {
                rcptTo.add(recipient);
                reply("250 2.1.5 OK");
            }
        }

        private void data() throws IOException {
            if (mailFrom == null || rcptTo.isEmpty()) {
                reply("503 5.5.1 need MAIL and RCPT first");
                return;
            }
            reply("354 End data with <CR><LF>.<CR><LF>");
            StringBuilder wire = new StringBuilder();
            StringBuilder data = new StringBuilder();
            for (String line = in.readLine(); line != null && !line.equals("."); line = in.readLine()) {
                wire.append(line).append("\r\n");
                data.append(line.startsWith(".") ? line.substring(1) : line).append("\r\n");
            }
            received.add(new Received(mailFrom, List.copyOf(rcptTo), wire.toString(), data.toString()));
            reply("250 2.0.0 OK queued");
        }

        private String ask(String challenge) throws IOException {
            reply("334 " + challenge);
            return in.readLine();
        }

        private void reply(String text) throws IOException {
            out.write((text + "\r\n").getBytes(StandardCharsets.UTF_8));
            out.flush();
        }

        private static String between(String line) {
            return line.substring(line.indexOf('<') + 1, line.lastIndexOf('>'));
        }

        private static String decode(String base64) {
            return new String(Base64.getDecoder().decode(base64.strip()), StandardCharsets.UTF_8);
        }
    }
}
