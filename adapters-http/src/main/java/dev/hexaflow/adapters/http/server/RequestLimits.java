package dev.hexaflow.adapters.http.server;

/**
 * What one Service API request (a run, a chat message, a conversation's change) may hold, so that no end user,
 * a web page's visitor included, can hand the store a value that takes it down: every text in its JSON body at
 * most {@code maxTextChars} characters, the body at most {@code maxJsonBytes}. Tighter limits of a field's own
 * (an input's {@code max_length}, a name's 255 characters) still apply.
 *
 * @param maxTextChars the longest text (a query, an input, a feedback's content, a conversation's value)
 * @param maxJsonBytes the largest JSON body
 */
public record RequestLimits(int maxTextChars, long maxJsonBytes) {

    /**
     * 200,000 characters: Dify bounds a workflow variable at 200 KB (its MAX_VARIABLE_SIZE), about fifty thousand
     * tokens of a prompt; a text of megabytes is copied into a run's inputs, its events and its nodes' records,
     * and three of them at once filled a 512 MB heap inside the store's commit. 4 MiB of JSON: room for several
     * such texts escaped, and no more than a few of them at once weigh on the heap.
     */
    public static final RequestLimits DEFAULTS = new RequestLimits(200_000, 4L * 1024 * 1024);

    public RequestLimits {
        if (maxTextChars < 1) {
            throw new IllegalArgumentException("HEXAFLOW_MAX_TEXT_CHARS must be 1 or more, was " + maxTextChars);
        }
        if (maxJsonBytes < 1024 || maxJsonBytes > JavalinHttpServer.MAX_REQUEST_BYTES) {
            throw new IllegalArgumentException("HEXAFLOW_MAX_JSON_BODY_KB must be between 1 and "
                    + JavalinHttpServer.MAX_REQUEST_BYTES / 1024 + " (the largest body the server reads), was "
                    + maxJsonBytes / 1024);
        }
    }
}
