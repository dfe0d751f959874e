package dev.hexaflow.adapters.clients.mail;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * One SMTP session's lines over a connected socket (RFC 5321): a command out, its reply in, multi-line replies
 * gathered, the message's lines dot-stuffed. It remembers the step it is at, so that a failure can say where.
 */
final class SmtpConversation {

    /** Longer reply lines or longer replies are no mail server's: the session is given up. */
    private static final int LONGEST_LINE = 4096;
    private static final int MOST_LINES = 100;

    /** A reply: its code and its text, each continuation line's text after the first. */
    record Reply(int code, List<String> lines) {

        boolean is(int... codes) {
            for (int expected : codes) {
                if (code == expected) {
                    return true;
                }
            }
            return false;
        }

        /** The reply as an error shows it: one line, no control characters, not too long. */
        String shown() {
            String text = code + " " + String.join(" ", lines);
            text = text.replaceAll("\\p{Cntrl}", " ").strip();
            return text.length() <= 200 ? text : text.substring(0, 200) + "...";
        }
    }

    private final InputStream in;
    private final OutputStream out;
    private String step = "the greeting";

    SmtpConversation(Socket socket) throws IOException {
        this.in = new BufferedInputStream(socket.getInputStream());
        this.out = new BufferedOutputStream(socket.getOutputStream());
    }

    /** The step under way, as an error names it ("the greeting", "RCPT TO", ...). */
    String step() {
        return step;
    }

    /** The server's next reply, as the answer to {@code step}. */
    Reply read(String step) throws IOException {
        this.step = step;
        List<String> lines = new ArrayList<>();
        while (true) {
            String line = line();
            if (line.length() < 3 || !line.substring(0, 3).chars().allMatch(Character::isDigit)
                    || (line.length() > 3 && line.charAt(3) != ' ' && line.charAt(3) != '-')) {
                throw new IOException("the mail server's reply is no SMTP reply");
            }
            lines.add(line.length() > 4 ? line.substring(4) : "");
            if (line.length() == 3 || line.charAt(3) == ' ') {
                return new Reply(Integer.parseInt(line.substring(0, 3)), List.copyOf(lines));
            }
            if (lines.size() >= MOST_LINES) {
                throw new IOException("the mail server's reply does not end");
            }
        }
    }

    /** Sends one command line and answers its reply; {@code step} names it without any secret it carries. */
    Reply send(String command, String step) throws IOException {
        this.step = step;
        out.write((command + SmtpMessage.CRLF).getBytes(StandardCharsets.UTF_8));
        out.flush();
        return read(step);
    }

    /** Sends the message after DATA was accepted, each line starting with '.' doubled, then the lone '.'. */
    Reply sendMessage(String message) throws IOException {
        this.step = "the end of the message";
        String[] lines = message.split(SmtpMessage.CRLF, -1);
        // The split leaves an empty last element for the message's final CRLF: it is no line of its own.
        int count = message.endsWith(SmtpMessage.CRLF) ? lines.length - 1 : lines.length;
        for (int i = 0; i < count; i++) {
            if (lines[i].startsWith(".")) {
                out.write('.');
            }
            out.write((lines[i] + SmtpMessage.CRLF).getBytes(StandardCharsets.UTF_8));
        }
        out.write(("." + SmtpMessage.CRLF).getBytes(StandardCharsets.US_ASCII));
        out.flush();
        return read(step);
    }

    /** Says goodbye without waiting for the answer: the session is over either way. */
    void quitQuietly() {
        try {
            out.write(("QUIT" + SmtpMessage.CRLF).getBytes(StandardCharsets.US_ASCII));
            out.flush();
        } catch (IOException e) {
            // The connection is closed next anyway.
        }
    }

    private String line() throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream(128);
        while (true) {
            int b = in.read();
            if (b < 0) {
                throw new EOFException("the mail server closed the connection");
            }
            if (b == '\n') {
                break;
            }
            if (line.size() >= LONGEST_LINE) {
                throw new IOException("the mail server's reply line is too long");
            }
            line.write(b);
        }
        String text = line.toString(StandardCharsets.UTF_8);
        return text.endsWith("\r") ? text.substring(0, text.length() - 1) : text;
    }
}
