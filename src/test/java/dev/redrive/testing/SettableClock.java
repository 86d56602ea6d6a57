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
 * it ends, so the other classes of the boot see real time. Beside the wall clock it keeps the
 * monotonic one ({@link #monotonicNanos}, what timers and a process's own waits are measured on):
 * {@link #advance} is time passing and moves both, {@link #jump} sets the wall clock alone, as NTP
 * or a resumed VM does.
 */
@Singleton
public class SettableClock extends Clock {

    private final Clock base;
    private final java.util.function.LongSupplier baseNanos;
    private volatile Duration ahead = Duration.ZERO;
    private volatile Duration jumped = Duration.ZERO;

    public SettableClock() {
        this.base = Clock.systemUTC();
        this.baseNanos = System::nanoTime;
    }

    /**
     * A clock {@code base} plus what a test moved it: on {@code Clock.fixed}, one that moves only when
     * moved; its monotonic clock reads {@code base}'s millis then, in nanoseconds.
     */
    public SettableClock(Clock base) {
        this.base = base;
        this.baseNanos = () -> base.millis() * 1_000_000;
    }

    /** Time passes: the wall clock and the monotonic one move {@code by}. */
    public void advance(Duration by) {
        ahead = ahead.plus(by);
    }

    /** The wall clock is set {@code by} (negative: back); the monotonic clock does not move. */
    public void jump(Duration by) {
        jumped = jumped.plus(by);
    }

    public void reset() {
        ahead = Duration.ZERO;
        jumped = Duration.ZERO;
    }

    /** The monotonic clock: only {@link #advance} moves it. */
    public long monotonicNanos() {
        return baseNanos.getAsLong() + ahead.toNanos();
    }

    @Override
    public Instant instant() {
        return base.instant().plus(ahead).plus(jumped);
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
