package dev.hexaflow.domain.campus;

import java.util.List;

/** A whole feed answer: meta and data; data is empty on every error. */
public record FeedEnvelope(FeedMeta meta, List<? extends CampusRecord> data) {

    public FeedEnvelope {
        if (meta == null) {
            throw new IllegalArgumentException("meta must not be null");
        }
        data = data == null ? List.of() : List.copyOf(data);
        if (!meta.status().isSuccess() && !data.isEmpty()) {
            throw new IllegalArgumentException("an error answer carries no data, status was " + meta.status());
        }
    }

    public static FeedEnvelope error(FeedMeta meta) {
        return new FeedEnvelope(meta, List.of());
    }
}
