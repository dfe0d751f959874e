package dev.hexaflow.application.apps.port.in;

import dev.hexaflow.application.common.ApiException;

/**
 * Finds whom a bearer token speaks for: an app's API key, good for every operation and every end user, or a
 * token its web page handed out, good for a while, only for what a page does, and only for its own web user.
 */
public interface AuthenticateUseCase {

    /**
     * The app, and the web user a page's token acts for.
     *
     * @throws ApiException UNAUTHORIZED for no valid token (unknown, malformed or expired), FORBIDDEN for a web
     *         page's token used for what a page does not do, or of an app whose page was turned off since
     */
    Caller callerOf(String token, Operation operation);

    /** What a request asks of an app. */
    enum Operation {
        RUN(true), STOP(true), UPLOAD(true), DESCRIBE(true), READ_RUNS("read runs or logs"),
        /** An end user's own conversations, messages and feedback: what a chat page reads and changes. */
        CHAT(true),
        /**
         * An async run: answered before it ends, it frees the request that bounds a client's runs, and a page
         * could not follow it (it cannot read runs), so it is an app key's alone.
         */
        RUN_ASYNC("start an async run"),
        /**
         * A run that names where its end is posted (its {@code callback_url}): the post is signed with the app's
         * webhook secret, so only whoever holds the app's key may choose where it goes.
         */
        NAME_CALLBACK("name a callback_url"),
        /** An app's annotations and its annotation reply: what answers every user, so the app's key's alone. */
        MANAGE_ANNOTATIONS("manage annotations");

        private final boolean openToWebPages;
        private final String forKeysOnly;

        Operation(boolean openToWebPages) {
            this.openToWebPages = openToWebPages;
            this.forKeysOnly = null;
        }

        /** An operation only an app's key may do, which a page's refusal names. */
        Operation(String forKeysOnly) {
            this.openToWebPages = false;
            this.forKeysOnly = forKeysOnly;
        }

        /** What a page's refusal says a page's token cannot do; null for what a page may do. */
        public String forKeysOnly() {
            return forKeysOnly;
        }

        /** Whether a web page's token may do it: running, stopping, uploading and describing the app. */
        public boolean openToWebPages() {
            return openToWebPages;
        }
    }
}
