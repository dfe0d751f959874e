package dev.hexaflow.application.runs.port.out;

import java.util.List;

/** Sends the link of a paused run's form by e-mail: one mail reaches all its recipients, or none of them. */
@FunctionalInterface
public interface FormMailer {

    /** Sends nothing: a server without a mail server configured. */
    FormMailer NONE = mail -> { };

    /**
     * Hands the mail to the mail server; it has been accepted for every recipient when this returns.
     *
     * @throws FormMailException when the mail could not be handed over, with a reason a person reads
     */
    void send(FormMail mail);

    /**
     * A mail as the caller means it, plain text; the sender is the mailer's own.
     *
     * @param to the recipients' bare addresses, at least one
     */
    record FormMail(List<String> to, String subject, String body) {

        public FormMail {
            if (to == null || to.isEmpty()) {
                throw new IllegalArgumentException("a mail needs at least one recipient in to");
            }
            to = List.copyOf(to);
            subject = subject == null ? "" : subject;
            body = body == null ? "" : body;
        }
    }

    /** The mail did not go out; the message says why and at which step, never with a password in it. */
    class FormMailException extends RuntimeException {

        public FormMailException(String message) {
            super(message);
        }

        public FormMailException(String message, Throwable cause) {
            super(message, cause);
        }
    }
}
