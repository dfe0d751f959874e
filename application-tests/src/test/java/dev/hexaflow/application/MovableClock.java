package dev.hexaflow.application;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/** A clock that stands still until moved, shared by the contexts' use-case tests (chat keeps its own in ChatBed). */
public final class MovableClock extends Clock {

    private volatile long millis;

    public MovableClock(Instant start) {
        this.millis = start.toEpochMilli();
    }

    public void advance(Duration by) {
        millis += by.toMillis();
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        return this;
    }

    @Override
    public long millis() {
        return millis;
    }

    @Override
    public Instant instant() {
        return Instant.ofEpochMilli(millis);
    }
}
