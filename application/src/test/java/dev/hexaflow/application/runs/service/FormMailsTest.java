package dev.hexaflow.application.runs.service;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hexaflow.application.runs.port.out.FormMailer.FormMail;
import dev.hexaflow.domain.workflow.HumanInputForm;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class FormMailsTest {

    private static final String LINK = "https://flow.example/form/tok-1";

    private static HumanInputForm formDelivering(List<Map<String, Object>> methods) {
        return new HumanInputForm("form-1", "tok-1", "run-1", "approve", "Approve the refund", "Refund?",
                List.of(), List.of(), Map.of(), 1_700_000_000L, methods);
    }

    private static Map<String, Object> email(boolean enabled, String subject, String body, List<?> items) {
        return Map.of("type", "email", "enabled", enabled, "config", Map.of(
                "recipients", Map.of("whole_workspace", false, "items", items),
                "subject", subject, "body", body, "debug_mode", false));
    }

    private static Map<String, Object> external(String address) {
        return Map.of("type", "external", "email", address);
    }

    @Test
    void theLinkTakesThePlaceholdersPlaceAndOtherReferencesAreLeftAsTheyAre() {
        HumanInputForm form = formDelivering(List.of(email(true, "Please answer",
                "Hello,\n{{#start.name#}} asks you: {{#url#}}\nThanks", List.of(external("ada@example.org")))));

        List<FormMail> mails = FormMails.of(form, LINK);

        assertThat(mails).containsExactly(new FormMail(List.of("ada@example.org"), "Please answer",
                "Hello,\n{{#start.name#}} asks you: " + LINK + "\nThanks"));
    }

    @Test
    void onlyExternalRecipientsAreMailedAndMembersAreSkipped() {
        HumanInputForm form = formDelivering(List.of(email(true, "s", "{{#url#}}", List.of(
                external("ada@example.org"), Map.of("type", "member", "user_id", "u-42"),
                external("bob@example.org")))));

        assertThat(FormMails.of(form, LINK)).singleElement()
                .satisfies(mail -> assertThat(mail.to()).containsExactly("ada@example.org", "bob@example.org"));
    }

    @Test
    void aMethodWithOnlyMembersGivesNoMail() {
        HumanInputForm form = formDelivering(List.of(email(true, "s", "{{#url#}}",
                List.of(Map.of("type", "member", "user_id", "u-42")))));

        assertThat(FormMails.of(form, LINK)).isEmpty();
    }

    @Test
    void aDisabledMethodAndTheWebAppAreIgnored() {
        HumanInputForm form = formDelivering(List.of(
                email(false, "off", "{{#url#}}", List.of(external("off@example.org"))),
                Map.of("type", "webapp", "enabled", true),
                email(true, "on", "{{#url#}}", List.of(external("on@example.org")))));

        assertThat(FormMails.of(form, LINK)).extracting(FormMail::subject).containsExactly("on");
    }

    @Test
    void aLineBreakInTheSubjectSkipsThatMailOnly() {
        HumanInputForm form = formDelivering(List.of(
                email(true, "Hi\r\nBcc: all@example.org", "{{#url#}}", List.of(external("ada@example.org"))),
                email(true, "fine", "{{#url#}}", List.of(external("bob@example.org")))));

        assertThat(FormMails.of(form, LINK)).extracting(FormMail::subject).containsExactly("fine");
    }

    @Test
    void aLineBreakInAnAddressSkipsTheWholeMail() {
        HumanInputForm form = formDelivering(List.of(email(true, "s", "{{#url#}}", List.of(
                external("ada@example.org"), external("bob@example.org\nBcc: all@example.org")))));

        assertThat(FormMails.of(form, LINK)).isEmpty();
    }

    @Test
    void malformedAddressesAreDroppedAndTheRestKept() {
        HumanInputForm form = formDelivering(List.of(email(true, "s", "{{#url#}}", List.of(
                external("not an address"), external("a@b.c, d@e.f"), external(" ada@example.org "),
                external("ADA@example.org")))));

        assertThat(FormMails.of(form, LINK)).singleElement()
                .satisfies(mail -> assertThat(mail.to()).containsExactly("ada@example.org"));
    }

    @Test
    void aMailHasAtMostTwentyRecipientsTheFirstOnes() {
        List<Object> items = new ArrayList<>();
        IntStream.rangeClosed(1, 25).forEach(i -> items.add(external("r" + i + "@example.org")));
        HumanInputForm form = formDelivering(List.of(email(true, "s", "{{#url#}}", items)));

        List<String> to = FormMails.of(form, LINK).get(0).to();

        assertThat(to).hasSize(20).startsWith("r1@example.org").endsWith("r20@example.org");
    }

    @Test
    void aBlankSubjectIsTheNodesTitleAndABodyWithoutThePlaceholderStillCarriesTheLink() {
        HumanInputForm form = formDelivering(List.of(email(true, " ", "Please answer.",
                List.of(external("ada@example.org")))));

        FormMail mail = FormMails.of(form, LINK).get(0);

        assertThat(mail.subject()).isEqualTo("Approve the refund");
        assertThat(mail.body()).isEqualTo("Please answer.\n\n" + LINK);
    }
}
