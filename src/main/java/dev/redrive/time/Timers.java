package dev.redrive.time;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;

/**
 * The one owner of time for the worker (and the redrive runner's look for abandoned tasks, the
 * dead-letter log's windows): timers that run once, periodic work, the monotonic clock they and
 * every wait of the process are measured on, and the wall clock records are stamped with. In production {@link VertxTimers} (Vert.x timers: a task runs on the event-loop context it
 * was scheduled from, or a new one off it); in tests {@code testing/SteppableTimers}, which a test
 * steps forward instead of waiting for a backoff to pass.
 */
public interface Timers {

    /** A timer set by {@link #after} or {@link #every}: cancelling it again, or after it ran once, does nothing. */
    @FunctionalInterface
    interface Timer {
        Timer NONE = () -> {
        };

        void cancel();
    }

    /** Runs {@code task} once, {@code delay} from now (at least 1 ms). */
    Timer after(Duration delay, Runnable task);

    /** Runs {@code task} every {@code period} (at least 1 ms), the first time one period from now, until cancelled. */
    Timer every(Duration period, Runnable task);

    /** The wall clock: what records and attempts are stamped with. */
    Clock clock();

    /**
     * Nanoseconds on a clock that never jumps (System.nanoTime in production; the one timers are
     * measured on): what this process times its own waits with (a retry it handed over, a redrive's
     * lease renewal, canary deadline and pace), so a wall clock set back an hour (NTP, a resumed VM)
     * neither stretches nor shortens them. Only differences mean anything.
     */
    long elapsedNanos();

    /** {@link #elapsedNanos} in whole milliseconds, rounded down (System.nanoTime may be negative). */
    default long elapsedMillis() {
        return Math.floorDiv(elapsedNanos(), 1_000_000L);
    }

    default long millis() {
        return clock().millis();
    }

    /** Now on the wall clock, to the millisecond: what records and attempts are stamped with. */
    default Instant now() {
        return clock().instant().truncatedTo(ChronoUnit.MILLIS);
    }
}
