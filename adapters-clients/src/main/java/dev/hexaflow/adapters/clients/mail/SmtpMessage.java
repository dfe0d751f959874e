package dev.hexaflow.adapters.clients.mail;

import dev.hexaflow.application.runs.port.out.FormMailer.FormMail;
import java.nio.charset.StandardCharsets;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Base64;

/**
 * A form mail as the DATA step sends it (RFC 5322 with MIME): headers in ASCII, a non-ASCII or long subject as
 * RFC 2047 encoded-words, the body as quoted-printable UTF-8. Every line ends in CRLF and stays under 78
 * characters; dot-stuffing is the conversation's business, not the message's.
 */
final class SmtpMessage {

    static final String CRLF = "\r\n";
    /** Quoted-printable lines at most this long, the soft break's '=' included (RFC 2045). */
    private static final int QP_LINE = 76;
    /**
     * Bytes per encoded-word: 52 base64 characters, 64 with "=?UTF-8?B?" and "?=", so that even the first, after
     * "Subject: ", stays within 78 characters.
     */
    private static final int WORD_BYTES = 39;
    /** A plain subject longer than this is encoded too, so that it folds. */
    private static final int PLAIN_SUBJECT = 60;

    private SmtpMessage() {
    }

    /** The whole message, headers and body, ending with CRLF. */
    static String of(String from, FormMail mail, ZonedDateTime date, String messageId) {
        StringBuilder text = new StringBuilder(256 + mail.body().length() * 2);
        text.append("From: ").append(from).append(CRLF);
        // One recipient per line: a long list stays within the line length without a folding rule of its own.
        text.append("To: ").append(String.join("," + CRLF + " ", mail.to())).append(CRLF);
        text.append("Subject: ").append(subject(mail.subject())).append(CRLF);
        text.append("Date: ").append(DateTimeFormatter.RFC_1123_DATE_TIME.format(date)).append(CRLF);
        text.append("Message-ID: ").append(messageId).append(CRLF);
        text.append("MIME-Version: 1.0").append(CRLF);
        text.append("Content-Type: text/plain; charset=UTF-8").append(CRLF);
        text.append("Content-Transfer-Encoding: quoted-printable").append(CRLF);
        text.append(CRLF);
        text.append(quotedPrintable(mail.body()));
        return text.toString();
    }

    /** The subject as a header value: itself when plain short ASCII, otherwise encoded-words folded one a line. */
    static String subject(String subject) {
        if (subject.length() <= PLAIN_SUBJECT && !subject.contains("=?")
                && subject.chars().allMatch(c -> c >= 0x20 && c < 0x7f)) {
            return subject;
        }
        StringBuilder words = new StringBuilder();
        byte[] bytes = subject.getBytes(StandardCharsets.UTF_8);
        int start = 0;
        while (start < bytes.length) {
            int end = Math.min(bytes.length, start + WORD_BYTES);
            while (end < bytes.length && (bytes[end] & 0xC0) == 0x80) {
                end--; // never split a character: each encoded-word must decode on its own
            }
            if (words.length() > 0) {
                words.append(CRLF).append(' ');
            }
            words.append("=?UTF-8?B?").append(Base64.getEncoder().encodeToString(
                    java.util.Arrays.copyOfRange(bytes, start, end))).append("?=");
            start = end;
        }
        return words.toString();
    }

    /** The body as quoted-printable lines, whatever its own line ends were (CRLF, LF or CR). */
    static String quotedPrintable(String body) {
        StringBuilder out = new StringBuilder(body.length() * 2);
        for (String line : body.replace("\r\n", "\n").replace('\r', '\n').split("\n", -1)) {
            encodeLine(line.getBytes(StandardCharsets.UTF_8), out);
            out.append(CRLF);
        }
        return out.toString();
    }

    private static void encodeLine(byte[] line, StringBuilder out) {
        int width = 0;
        for (int i = 0; i < line.length; i++) {
            int b = line[i] & 0xff;
            boolean last = i == line.length - 1;
            // Trailing white space is encoded: transports may strip it from a line's end.
            boolean literal = (b >= 33 && b <= 126 && b != '=') || ((b == ' ' || b == '\t') && !last);
            String token = literal ? String.valueOf((char) b) : String.format("=%02X", b);
            // Room is left for the soft break's '=' unless this token ends the line.
            int room = last ? QP_LINE : QP_LINE - 1;
            if (width + token.length() > room) {
                out.append('=').append(CRLF);
                width = 0;
            }
            out.append(token);
            width += token.length();
        }
    }
}
