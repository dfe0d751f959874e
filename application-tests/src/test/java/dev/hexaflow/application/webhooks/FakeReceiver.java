package dev.hexaflow.application.webhooks;

import dev.hexaflow.application.webhooks.port.out.CallbackSender;
import dev.hexaflow.domain.webhook.CallbackUrl;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;

/** A callback sender that keeps each post and answers what it was told to, in turn; 200 once told nothing. */
final class FakeReceiver implements CallbackSender {

    /** A post as the receiver got it. */
    record Post(CallbackUrl url, String body, Map<String, String> headers, Duration timeout) {
    }

    final List<Post> posts = new ArrayList<>();
    private final Deque<Answer> answers = new ArrayDeque<>();

    FakeReceiver answers(Answer... next) {
        answers.addAll(List.of(next));
        return this;
    }

    /** Every post from now on fails with this answer. */
    FakeReceiver alwaysAnswers(Answer answer) {
        answers.clear();
        for (int i = 0; i < 1000; i++) {
            answers.add(answer);
        }
        return this;
    }

    @Override
    public synchronized Answer post(CallbackUrl url, byte[] body, Map<String, String> headers, Duration timeout) {
        posts.add(new Post(url, new String(body, StandardCharsets.UTF_8), Map.copyOf(headers), timeout));
        return answers.isEmpty() ? Answer.status(200) : answers.poll();
    }
}
