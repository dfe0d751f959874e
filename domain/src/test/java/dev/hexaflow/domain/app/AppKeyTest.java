package dev.hexaflow.domain.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class AppKeyTest {

    private static final String KEY = "app-AbCdEfGhIjKlMnOpQrSt0129";

    @Test
    void aKeyIsAppAndTwentyFourAsciiLettersAndDigits() {
        assertThat(KEY).hasSize(AppKey.PREFIX.length() + AppKey.RANDOM_LENGTH);
        assertThat(AppKey.looksLikeKey(KEY)).isTrue();
        assertThat(AppKey.looksLikeKey("app-zzzzzzzzzzzzzzzzzzzzzzzz")).isTrue();
    }

    @Test
    void anythingElseIsNoKey() {
        String body = KEY.substring(AppKey.PREFIX.length());
        for (String text : List.of("", "app-", KEY.substring(1), KEY + "x", KEY.substring(0, KEY.length() - 1),
                "App-" + body, "ap-x" + body, "dataset-" + body, "app-" + body.substring(1) + "-",
                "app-" + body.substring(1) + "_", "app-" + body.substring(1) + "\u00e9",
                "app-" + body.substring(1) + "\u0661", "app-" + body.substring(1) + "@",
                "app-" + body.substring(1) + "[", "app-" + body.substring(1) + "`", "app-" + body.substring(1) + "{",
                " " + KEY.substring(1), "app-" + body.substring(1) + " ")) {
            assertThat(AppKey.looksLikeKey(text)).as(text).isFalse();
        }
        assertThat(AppKey.looksLikeKey(null)).isFalse();
    }
}
