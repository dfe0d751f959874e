package dev.hexaflow.adapters.http.support;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.util.JsonRecyclerPools;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.javalin.http.Context;
import java.io.IOException;

/** How answers' bodies are made and written, the same for every API. */
public final class ResponseBodies {

    private ResponseBodies() {
    }

    /**
     * Writes the whole body at once with its length, rather than through Javalin's result stream, which copies
     * it over through a buffer of its own for every answer.
     */
    public static void write(Context ctx, int status, String contentType, byte[] body) {
        ctx.status(status).contentType(contentType);
        ctx.res().setContentLength(body.length);
        try {
            ctx.res().getOutputStream().write(body);
        } catch (IOException e) {
            // The client went away; there is no one left to answer.
        }
    }

    /**
     * A Jackson mapper whose buffers are shared through a pool: Jackson keeps them per thread by default, and on
     * virtual threads (one per request) that means new buffers for every request.
     */
    public static ObjectMapper jsonMapper() {
        return new ObjectMapper(JsonFactory.builder().recyclerPool(JsonRecyclerPools.sharedConcurrentDequePool())
                .build());
    }
}
