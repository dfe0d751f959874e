package dev.hexaflow.adapters.campus.render;

import dev.hexaflow.application.campus.port.out.FeedRenderer;
import dev.hexaflow.domain.campus.CampusRecord;
import dev.hexaflow.domain.campus.FeedEnvelope;
import dev.hexaflow.domain.campus.FeedMethod;
import dev.hexaflow.domain.campus.JsonpCallback;
import dev.hexaflow.domain.campus.OutputFormat;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The feed's renderer: picks the JSON, XML or iCalendar writer by format and wraps JSON in a JSONP callback.
 *
 * <p>Only {@code meta} differs from call to call; the records change on import. So the rendered data part is
 * kept per method and format, for as long as the envelope carries the very same (immutable) record list, which
 * a caching repository hands out until the data set is replaced.
 */
public final class JacksonBiweeklyFeedRenderer implements FeedRenderer {

    private static final byte[] JSON_OPEN = "{\"meta\":".getBytes(StandardCharsets.UTF_8);
    private static final byte[] JSON_DATA = ",\"data\":".getBytes(StandardCharsets.UTF_8);
    private static final byte[] JSON_CLOSE = "}".getBytes(StandardCharsets.UTF_8);
    private static final byte[] XML_OPEN =
            "<?xml version='1.0' encoding='UTF-8'?><response>".getBytes(StandardCharsets.UTF_8);
    private static final byte[] XML_CLOSE = "</response>".getBytes(StandardCharsets.UTF_8);

    private final JacksonJsonFeedWriter json = new JacksonJsonFeedWriter();
    private final JacksonXmlFeedWriter xml = new JacksonXmlFeedWriter();
    private final BiweeklyHolidayCalendarWriter ics = new BiweeklyHolidayCalendarWriter();
    private final Map<Key, Rendered> dataParts = new ConcurrentHashMap<>();

    private record Key(Optional<FeedMethod> method, OutputFormat format) {
    }

    private record Rendered(List<? extends CampusRecord> records, byte[] bytes) {
    }

    @Override
    public RenderedFeed render(FeedEnvelope envelope, OutputFormat format, Optional<JsonpCallback> callback) {
        return switch (format) {
            case JSON -> {
                byte[] body = concat(JSON_OPEN, json.meta(envelope.meta()), JSON_DATA,
                        dataPart(envelope, format), JSON_CLOSE);
                yield callback.map(name -> new RenderedFeed("application/javascript; charset=utf-8",
                                concat(bytes(name.name() + "("), body, bytes(");"))))
                        .orElseGet(() -> new RenderedFeed("application/json; charset=utf-8", body));
            }
            case XML -> new RenderedFeed("application/xml; charset=utf-8",
                    concat(XML_OPEN, xml.meta(envelope.meta()), dataPart(envelope, format), XML_CLOSE));
            case ICS -> new RenderedFeed("text/calendar; charset=utf-8", dataPart(envelope, format));
        };
    }

    private byte[] dataPart(FeedEnvelope envelope, OutputFormat format) {
        if (envelope.data().isEmpty()) {
            return write(envelope.data(), format);
        }
        Key key = new Key(envelope.meta().method(), format);
        Rendered kept = dataParts.get(key);
        if (kept != null && kept.records() == envelope.data()) {
            return kept.bytes();
        }
        byte[] bytes = write(envelope.data(), format);
        dataParts.put(key, new Rendered(envelope.data(), bytes));
        return bytes;
    }

    private byte[] write(List<? extends CampusRecord> records, OutputFormat format) {
        return switch (format) {
            case JSON -> json.data(records);
            case XML -> xml.data(records);
            case ICS -> ics.calendar(records);
        };
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] concat(byte[]... parts) {
        int length = 0;
        for (byte[] part : parts) {
            length += part.length;
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream(length);
        for (byte[] part : parts) {
            out.writeBytes(part);
        }
        return out.toByteArray();
    }
}
