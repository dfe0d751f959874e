package dev.hexaflow.application.campus.port.in;

/**
 * A call to the feed as it arrived: {@code /{service}/{resource}.{extension}?key=&callback=}. Nothing is
 * checked here: telling a bad path or key from a good one is the use case's job, answered in the envelope.
 *
 * @param key      the key as given, or null
 * @param callback the JSONP callback as given, or null
 */
public record CampusFeedQuery(String service, String resource, String extension, String key, String callback) {

    public CampusFeedQuery {
        service = service == null ? "" : service;
        resource = resource == null ? "" : resource;
        extension = extension == null ? "" : extension;
    }
}
