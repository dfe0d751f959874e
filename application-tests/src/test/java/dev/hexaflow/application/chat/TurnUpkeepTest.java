package dev.hexaflow.application.chat;

import static dev.hexaflow.application.chat.ChatBed.ADA;
import static dev.hexaflow.application.chat.ChatBed.CHAT_APP;
import static org.assertj.core.api.Assertions.assertThat;

import dev.hexaflow.adapters.persistence.memory.InMemoryRunRepository;
import dev.hexaflow.application.chat.service.InterruptedTurns;
import dev.hexaflow.application.chat.service.MessageFileLinks;
import dev.hexaflow.application.common.FileSignatures;
import dev.hexaflow.application.runs.port.out.RunRepository.StartedRun;
import dev.hexaflow.domain.app.EndUser;
import dev.hexaflow.domain.chat.Conversation;
import dev.hexaflow.domain.chat.Message;
import dev.hexaflow.domain.chat.MessageFile;
import dev.hexaflow.domain.chat.MessageStatus;
import dev.hexaflow.domain.workflow.FileValue;
import dev.hexaflow.domain.workflow.RunStatus;
import dev.hexaflow.domain.workflow.WorkflowRun;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Upkeep of chat turns: closing turns a crash cut off, on the chat bed's messages and the in-memory runs; and the
 * links a message's files are shown at, signed each time they are shown.
 */
class TurnUpkeepTest {

    private final ChatBed bed = new ChatBed();
    private final InMemoryRunRepository runs = new InMemoryRunRepository();
    private final InterruptedTurns interrupted = new InterruptedTurns(bed.messages, runs);
    private final FileSignatures signatures = new FileSignatures(message -> ("sig" + Arrays.hashCode(message))
            .getBytes(StandardCharsets.US_ASCII), length -> "n".repeat(length), bed.clock);
    private final MessageFileLinks links = new MessageFileLinks(signatures);
    private final Conversation chat = bed.conversation("c1", ADA, "q");

    /** A message still waiting for its answer, whose run is kept ending as {@code status} (RUNNING: not ended). */
    private Message awaiting(String id, RunStatus status, String error) {
        Message message = Message.started(id, chat.id(), CHAT_APP, chat.endUserId(), null, Map.of(), "q", List.of(),
                "run-" + id, "task-" + id, bed.clock.instant().getEpochSecond());
        bed.messages.add(message);
        WorkflowRun run = WorkflowRun.started("run-" + id, "ver-1", Map.of(), 1);
        runs.started(new StartedRun(run, CHAT_APP, "task-" + id, new EndUser(chat.endUserId(), CHAT_APP, ADA, 1),
                "v1", "log-" + id)).join();
        if (status != RunStatus.RUNNING) {
            runs.finished(run.finish(status, Map.of(), error, 1, 0, 1, 0, 2)).join();
        }
        return message;
    }

    private Message kept(String id) {
        return bed.messages.find(CHAT_APP, chat.endUserId(), id).orElseThrow();
    }

    @Test
    void aTurnWhoseRunFailedEndsAsAnErrorWithTheRunsError() {
        awaiting("m1", RunStatus.FAILED, "The server stopped while the run was under way.");

        assertThat(interrupted.close()).isEqualTo(1);

        assertThat(kept("m1").status()).isEqualTo(MessageStatus.ERROR);
        assertThat(kept("m1").error()).isEqualTo("The server stopped while the run was under way.");
        assertThat(kept("m1").answer()).isEmpty();
        assertThat(bed.messages.awaitingAnswer()).isEmpty();
    }

    @Test
    void aTurnWhoseRunStoppedWithoutSayingWhyEndsSayingTheServerStopped() {
        awaiting("m1", RunStatus.STOPPED, null);
        awaiting("m2", RunStatus.FAILED, " ");

        assertThat(interrupted.close()).isEqualTo(2);

        assertThat(kept("m1").error()).isEqualTo(InterruptedTurns.SERVER_STOPPED);
        assertThat(kept("m2").error()).isEqualTo(InterruptedTurns.SERVER_STOPPED);
    }

    @Test
    void aTurnStillRunningOrWhoseRunSucceededOrIsUnknownIsLeftWaiting() {
        awaiting("running", RunStatus.RUNNING, null);
        awaiting("succeeded", RunStatus.SUCCEEDED, null);
        bed.messages.add(Message.started("lost", chat.id(), CHAT_APP, chat.endUserId(), null, Map.of(), "q",
                List.of(), "run-never-kept", "task-lost", 1));

        assertThat(interrupted.close()).isZero();

        assertThat(bed.messages.awaitingAnswer()).extracting(Message::id)
                .containsExactlyInAnyOrder("running", "succeeded", "lost");
    }

    @Test
    void aWholeTurnIsNeverTouchedAndASecondCloseEndsNothingMore() {
        Message answered = bed.turn("m0", chat, "q0", "a0");
        awaiting("m1", RunStatus.FAILED, "boom");

        assertThat(interrupted.close()).isEqualTo(1);
        assertThat(interrupted.close()).isZero();

        assertThat(kept("m0")).isEqualTo(answered);
        assertThat(kept("m0").status()).isEqualTo(MessageStatus.NORMAL);
    }

    @Test
    void anUploadIsKeptAtItsPreviewPathAToolFileAtItsPathAndARemoteFileAtItsUrl() {
        FileValue upload = new FileValue("f1", "document", "local_file", null, "up1", "a.txt", ".txt", "text/plain",
                3, "/files/up1/file-preview?timestamp=1&nonce=n&sign=s");
        FileValue tool = new FileValue("f2", "image", "tool_file", null, "tf1", "b.png", ".png", "image/png", 3,
                "/files/tools/tf1.png?timestamp=1&nonce=n&sign=s");
        FileValue remote = new FileValue("f3", "image", "remote_url", "https://cdn/c.png", null, "c.png", ".png",
                "image/png", 3, null);

        assertThat(MessageFileLinks.keptUrl(upload)).isEqualTo("/files/up1/file-preview");
        assertThat(MessageFileLinks.keptUrl(tool)).isEqualTo("/files/tools/tf1.png");
        assertThat(MessageFileLinks.keptUrl(remote)).isEqualTo("https://cdn/c.png");
    }

    @Test
    void aToolFileIsShownAtItsPathSignedNowEvenWhenKeptSignedLongAgo() {
        MessageFile file = new MessageFile("f2", "b.png", "image", "/files/tools/tf1.png?timestamp=1&nonce=x&sign=y",
                "image/png", 3, "tool_file", "assistant", "tf1");

        String url = links.shown(file).url();

        assertThat(url).startsWith("/files/tools/tf1.png?timestamp=" + bed.clock.instant().getEpochSecond() + "&");
        String[] parts = url.substring(url.indexOf('?') + 1).split("&");
        assertThat(signatures.valid("tf1", after(parts[0]), after(parts[1]), after(parts[2]))).isTrue();
    }

    @Test
    void aFileThatIsNeitherOursNorAnUploadIsShownAsItIs() {
        MessageFile remote = new MessageFile("f3", "c.png", "image", "https://cdn/c.png", "image/png", 3,
                "remote_url", "user", null);
        // An upload id whose URL points elsewhere is not ours to sign.
        MessageFile elsewhere = new MessageFile("f4", "d.png", "image", "https://cdn/up9/file-preview",
                "image/png", 3, "local_file", "user", "up9");

        assertThat(links.shown(remote)).isEqualTo(remote);
        assertThat(links.shown(elsewhere)).isEqualTo(elsewhere);
        assertThat(links.shown((Message) null)).isNull();
    }

    @Test
    void aMessageIsShownWithEachOfItsFilesSignedAndNothingElseChanged() {
        MessageFile upload = new MessageFile("f1", "a.txt", "document", "/files/up1/file-preview", "text/plain", 3,
                "local_file", "user", "up1");
        MessageFile remote = new MessageFile("f3", "c.png", "image", "https://cdn/c.png", "image/png", 3,
                "remote_url", "user", null);
        Message message = Message.started("m1", chat.id(), CHAT_APP, chat.endUserId(), null, Map.of(), "q",
                List.of(upload, remote), "run-m1", "task-m1", 1);

        Message shown = links.shown(message);

        assertThat(shown.files()).hasSize(2);
        assertThat(shown.files().get(0).url()).startsWith("/files/up1/file-preview?timestamp=");
        assertThat(shown.files().get(1)).isEqualTo(remote);
        assertThat(shown.withFiles(message.files())).isEqualTo(message);
    }

    private static String after(String pair) {
        return pair.substring(pair.indexOf('=') + 1);
    }
}
