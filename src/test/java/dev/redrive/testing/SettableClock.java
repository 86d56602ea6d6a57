package dev.redrive.testing;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

import jakarta.inject.Singleton;

/**
 * The clock of every Quarkus test boot: the system's, until a test moves it forward to step past
 * an expiry instead of waiting for it. A test that moves it puts it back ({@link #reset}) before
 * it ends, so the other classes of the boot see real time.
 */
@Singleton
public class SettableClock extends Clock {

    private final Clock base;
    private volatile Duration ahead = Duration.ZERO;

    public SettableClock() {
        this(Clock.systemUTC());
    }

    /** A clock {@code base} plus what a test moved it: on {@code Clock.fixed}, one that moves only when moved. */
    public SettableClock(Clock base) {
        this.base = base;
    }

    public void advance(Duration by) {
        ahead = ahead.plus(by);
    }

    public void reset() {
        ahead = Duration.ZERO;
    }

    @Override
    public Instant instant() {
        return base.instant().plus(ahead);
    }

    @Override
    public long millis() {
        return instant().toEpochMilli();
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        return this;
    }
}
