package dev.hexaflow.domain.campus;

import java.util.Optional;

/** What the key of a request allows: the method may be served with or without a key, or it is refused. */
public sealed interface KeyCheck {

    /** A valid, unbanned key; the call may count as its usage. */
    record Granted(CampusKey key) implements KeyCheck {
    }

    /** No key was given and the method needs none. */
    record Anonymous() implements KeyCheck {
    }

    /** The request must be answered with this error status. */
    record Refused(FeedStatus status, long requests) implements KeyCheck {
    }

    /**
     * The key policy of the feed: a method that needs a key refuses a call without one; a key that is given
     * must be known and not banned, even for a method that needs none.
     *
     * @param supplied whether the request carried a non-blank key
     * @param known    the stored key matching what was supplied, if any
     */
    static KeyCheck of(FeedMethod method, boolean supplied, Optional<CampusKey> known) {
        if (!supplied) {
            return method.keyRequired()
                    ? new Refused(FeedStatus.KEY_REQUIRED, FeedMeta.NO_KEY)
                    : new Anonymous();
        }
        if (known.isEmpty()) {
            return new Refused(FeedStatus.INVALID_KEY, FeedMeta.UNKNOWN_KEY);
        }
        CampusKey key = known.get();
        return key.banned() ? new Refused(FeedStatus.BANNED_KEY, key.requests()) : new Granted(key);
    }
}
