package dev.hexaflow.application.campus.port.out;

import dev.hexaflow.domain.campus.FeedMeta;

/** Hears each answer of the campus feed (its method, if it named one, and its status), for metrics; never fails. */
@FunctionalInterface
public interface CampusFeedMonitor {

    CampusFeedMonitor NONE = meta -> { };

    void served(FeedMeta meta);
}
