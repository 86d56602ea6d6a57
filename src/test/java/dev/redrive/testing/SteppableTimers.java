package dev.redrive.testing;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import dev.redrive.time.Timers;
import io.vertx.mutiny.core.Context;
import io.vertx.mutiny.core.Vertx;

/**
 * The {@link Timers} tests step instead of waiting for a backoff, measured on the boot's
 * {@link SettableClock}: timers on its monotonic clock (as Vert.x's are on System.nanoTime), so a
 * test can set the wall clock back ({@link SettableClock#jump}) and see no timer moved.
 * <ul>
 * <li>In a Quarkus boot (with Vert.x) every timer is a Vert.x timer too, so it runs when its delay
 * passes in real time, as in production; {@link #advance} moves the clock and runs at once, each on
 * the context that set it, the timers it stepped past (a periodic one once). A test that advances
 * puts the clock back ({@link #reset}) once nothing of its own waits on a timer.</li>
 * <li>{@link #manual} (unit tests): nothing runs until the test advances; then each timer it steps
 * past runs on the test's thread, in due order, with the clock at its due time (a periodic one once
 * per period).</li>
 * </ul>
 */
@Singleton
public class SteppableTimers implements Timers {

    private final SettableClock clock;
    /** Null: manual, nothing runs but what {@link #advance} steps past. */
    private final Vertx vertx;
    private final List<Entry> waiting = new ArrayList<>();

    @Inject
    public SteppableTimers(SettableClock clock, Vertx vertx) {
        this.clock = clock;
        this.vertx = vertx;
    }

    /** Timers that run only when a test advances past them, on a clock that starts at {@code start}. */
    public static SteppableTimers manual(Instant start) {
        return new SteppableTimers(new SettableClock(Clock.fixed(start, ZoneOffset.UTC)), null);
    }

    @Override
    public Timer after(Duration delay, Runnable task) {
        return schedule(delay, 0, task);
    }

    @Override
    public Timer every(Duration period, Runnable task) {
        return schedule(period, Math.max(1, period.toMillis()), task);
    }

    @Override
    public SettableClock clock() {
        return clock;
    }

    @Override
    public long elapsedNanos() {
        return clock.monotonicNanos();
    }

    /** Timers set and not yet run (or cancelled); a periodic one counts until cancelled. */
    public synchronized int pending() {
        return waiting.size();
    }

    /** Moves the clock {@code by} forward and runs the timers it steps past. */
    public void advance(Duration by) {
        if (vertx == null) {
            long target = elapsedMillis() + by.toMillis();
            for (Entry next = nextDue(target); next != null; next = nextDue(target)) {
                clock.advance(Duration.ofMillis(next.due - elapsedMillis()));
                next.fire(next.due + next.period, false);
            }
            clock.advance(Duration.ofMillis(target - elapsedMillis()));
            return;
        }
        clock.advance(by);
        long now = elapsedMillis();
        for (Entry next = nextDue(now); next != null; next = nextDue(now)) {
            next.fire(now + next.period, true);
        }
    }

    /** Puts the clock back to real time (timers already set keep their real delays). */
    public void reset() {
        clock.reset();
    }

    private synchronized Entry nextDue(long by) {
        return waiting.stream().filter(e -> e.due <= by).min(Comparator.comparingLong(e -> e.due)).orElse(null);
    }

    private Timer schedule(Duration delay, long period, Runnable task) {
        long millis = Math.max(1, delay.toMillis());
        Entry entry = new Entry(task, period, elapsedMillis() + millis,
                vertx == null ? null : vertx.getOrCreateContext());
        synchronized (this) {
            waiting.add(entry);
        }
        if (vertx != null) {
            entry.real = period == 0 ? vertx.setTimer(millis, t -> entry.fire(Long.MAX_VALUE, false))
                    : vertx.setPeriodic(millis, t -> entry.fire(elapsedMillis() + period, false));
        }
        return entry::cancel;
    }

    private final class Entry {
        final Runnable task;
        /** 0: runs once. */
        final long period;
        /** Where a stepped timer runs: the context that set it, as a Vert.x timer would (null: manual). */
        final Context context;
        long due;
        volatile long real = -1;

        Entry(Runnable task, long period, long due, Context context) {
            this.task = task;
            this.period = period;
            this.due = due;
            this.context = context;
        }

        /**
         * Runs the task unless cancelled or run already (once); a periodic one is next due at
         * {@code nextDue}. A Vert.x timer runs it on its own context; a {@code stepped} one is sent there.
         */
        void fire(long nextDue, boolean stepped) {
            synchronized (SteppableTimers.this) {
                if (!waiting.contains(this)) {
                    return;
                }
                if (period == 0) {
                    waiting.remove(this);
                } else {
                    due = nextDue;
                }
            }
            if (period == 0 && real >= 0) {
                vertx.cancelTimer(real);
            }
            if (stepped) {
                context.runOnContext(task);
            } else {
                task.run();
            }
        }

        void cancel() {
            synchronized (SteppableTimers.this) {
                waiting.remove(this);
            }
            if (real >= 0) {
                vertx.cancelTimer(real);
            }
        }
    }
}
