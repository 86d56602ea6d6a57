package dev.redrive.time;

import java.time.Clock;
import java.time.Duration;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import dev.redrive.job.Durations;
import io.quarkus.arc.DefaultBean;
import io.vertx.mutiny.core.Vertx;

/**
 * Production's {@link Timers}: Vert.x timers, so a task runs on the event-loop context that set
 * it (or a new one when set off any), as a direct {@code vertx.setTimer} would; the clock is the
 * injected one ({@link ClockProducer}). The only class that sets Vert.x timers for the worker
 * (ArchitectureTest). A singleton, not application-scoped: every job asks it the time, and a
 * client proxy's scope lookup on each call showed in a traced drain's profile (issue 27).
 */
@Singleton
@DefaultBean
public class VertxTimers implements Timers {

    @Inject
    Vertx vertx;

    @Inject
    Clock clock;

    @Override
    public Timer after(Duration delay, Runnable task) {
        long id = vertx.setTimer(atLeastOne(delay), t -> task.run());
        return () -> vertx.cancelTimer(id);
    }

    @Override
    public Timer every(Duration period, Runnable task) {
        long id = vertx.setPeriodic(atLeastOne(period), t -> task.run());
        return () -> vertx.cancelTimer(id);
    }

    @Override
    public Clock clock() {
        return clock;
    }

    /** Vert.x measures its timers on System.nanoTime too. */
    @Override
    public long elapsedNanos() {
        return System.nanoTime();
    }

    /** Saturating: a delay past what a long holds in ms waits "as long as can be", never throws on a worker's path. */
    private static long atLeastOne(Duration d) {
        return Math.max(1, Durations.toMillis(d));
    }
}
