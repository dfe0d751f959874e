package dev.hexaflow.application.campus.port.in;

/** Answers one call to the campus feed, always with an envelope, counting the key's usage as the feed's rules say. */
public interface ServeCampusFeedUseCase {

    CampusFeedAnswer serve(CampusFeedQuery query);

    /** The envelope of a call the server cannot serve now (it is shutting down), in JSON. */
    CampusFeedAnswer unavailable();
}
