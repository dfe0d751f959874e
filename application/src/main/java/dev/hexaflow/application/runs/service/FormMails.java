package dev.hexaflow.application.runs.service;

import dev.hexaflow.application.runs.port.out.FormMailer.FormMail;
import dev.hexaflow.domain.workflow.HumanInputForm;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The mails a paused form's e-mail delivery methods ask for, as Dify's DSL declares them: one per enabled
 * {@code email} method, to its external recipients, its body with the form's link in place of {@code {{#url#}}}.
 * Workspace members and "the whole workspace" name Dify accounts, which Hexaflow has none of: they are skipped.
 */
public final class FormMails {

    /** Where a method's body puts the form's link. */
    static final String URL_PLACEHOLDER = "{{#url#}}";
    /** One mail's recipients at most: a form's DSL is no mailing list. */
    static final int MOST_RECIPIENTS = 20;
    /** A bare address: no space, no second @, nothing a header would read as a list, a name or a comment. */
    private static final Pattern ADDRESS = Pattern.compile("[^\\s@<>,;:\"()\\[\\]\\\\]+@[^\\s@<>,;:\"()\\[\\]\\\\]+");

    private FormMails() {
    }

    /** The mails for {@code form}, its link being {@code url}; none when no enabled method has a recipient left. */
    public static List<FormMail> of(HumanInputForm form, String url) {
        List<FormMail> mails = new ArrayList<>();
        for (Map<String, Object> method : form.deliveryMethods()) {
            if ("email".equals(method.get("type")) && !Boolean.FALSE.equals(method.get("enabled"))) {
                mailOf(form, map(method.get("config")), url).ifPresent(mails::add);
            }
        }
        return List.copyOf(mails);
    }

    private static Optional<FormMail> mailOf(HumanInputForm form, Map<?, ?> config, String url) {
        String subject = text(config.get("subject"));
        List<String> to = new ArrayList<>();
        for (Object item : list(map(config.get("recipients")).get("items"))) {
            Map<?, ?> recipient = map(item);
            if ("external".equals(recipient.get("type"))) {
                to.add(text(recipient.get("email")));
            }
        }
        // A line break in a header line starts a header of the DSL author's choosing (a Bcc, a second body).
        if (breaksALine(subject) || to.stream().anyMatch(FormMails::breaksALine)) {
            return Optional.empty();
        }
        List<String> recipients = recipients(to);
        if (recipients.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new FormMail(recipients, subject.isBlank() ? defaultSubject(form) : subject.strip(),
                body(text(config.get("body")), url)));
    }

    /** The well-formed addresses, each once (whatever its case), the first {@link #MOST_RECIPIENTS} of them. */
    private static List<String> recipients(List<String> addresses) {
        Map<String, String> distinct = new LinkedHashMap<>();
        for (String address : addresses) {
            String bare = address.strip();
            if (ADDRESS.matcher(bare).matches() && distinct.size() < MOST_RECIPIENTS) {
                distinct.putIfAbsent(bare.toLowerCase(Locale.ROOT), bare);
            }
        }
        return List.copyOf(distinct.values());
    }

    /** The body with the link in place; a body that forgot the placeholder still carries the link, at its end. */
    private static String body(String body, String url) {
        if (body.contains(URL_PLACEHOLDER)) {
            return body.replace(URL_PLACEHOLDER, url);
        }
        return body.isBlank() ? url : body.stripTrailing() + "\n\n" + url;
    }

    private static String defaultSubject(HumanInputForm form) {
        return form.nodeTitle().isBlank() || breaksALine(form.nodeTitle()) ? "A form is waiting for your answer"
                : form.nodeTitle().strip();
    }

    private static boolean breaksALine(String value) {
        return value.indexOf('\r') >= 0 || value.indexOf('\n') >= 0;
    }

    private static String text(Object value) {
        return value == null ? "" : String.valueOf(value);
    }

    private static Map<?, ?> map(Object value) {
        return value instanceof Map<?, ?> map ? map : Map.of();
    }

    private static List<?> list(Object value) {
        return value instanceof List<?> list ? list : List.of();
    }
}
