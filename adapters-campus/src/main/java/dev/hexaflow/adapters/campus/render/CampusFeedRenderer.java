package dev.hexaflow.adapters.campus.render;

import dev.hexaflow.application.campus.port.out.FeedRenderer;
import dev.hexaflow.domain.campus.FeedEnvelope;
import dev.hexaflow.domain.campus.JsonpCallback;
import dev.hexaflow.domain.campus.OutputFormat;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/** The feed's renderer: picks the JSON, XML or iCalendar writer by format and wraps JSON in a JSONP callback. */
public final class CampusFeedRenderer implements FeedRenderer {

    private final JacksonJsonFeedWriter json = new JacksonJsonFeedWriter();
    private final JacksonXmlFeedWriter xml = new JacksonXmlFeedWriter();
    private final BiweeklyHolidayCalendarWriter ics = new BiweeklyHolidayCalendarWriter();

    @Override
    public RenderedFeed render(FeedEnvelope envelope, OutputFormat format, Optional<JsonpCallback> callback) {
        return switch (format) {
            case JSON -> callback.map(name -> jsonp(name, json.write(envelope)))
                    .orElseGet(() -> new RenderedFeed("application/json; charset=utf-8", json.write(envelope)));
            case XML -> new RenderedFeed("application/xml; charset=utf-8", xml.write(envelope));
            case ICS -> new RenderedFeed("text/calendar; charset=utf-8", ics.write(envelope));
        };
    }

    private static RenderedFeed jsonp(JsonpCallback callback, byte[] json) {
        byte[] head = (callback.name() + "(").getBytes(StandardCharsets.UTF_8);
        byte[] tail = ");".getBytes(StandardCharsets.UTF_8);
        byte[] body = new byte[head.length + json.length + tail.length];
        System.arraycopy(head, 0, body, 0, head.length);
        System.arraycopy(json, 0, body, head.length, json.length);
        System.arraycopy(tail, 0, body, head.length + json.length, tail.length);
        return new RenderedFeed("application/javascript; charset=utf-8", body);
    }
}
