package dev.redrive.worker;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.vertx.mutiny.core.Vertx;

/** The periodic tasks of one component, started together and cancelled together. */
final class Periodic {

    private final Vertx vertx;
    private final List<Long> timers = new ArrayList<>();

    Periodic(Vertx vertx) {
        this.vertx = vertx;
    }

    synchronized void every(Duration period, Runnable task) {
        timers.add(vertx.setPeriodic(Math.max(1, period.toMillis()), t -> task.run()));
    }

    synchronized void cancel() {
        timers.forEach(vertx::cancelTimer);
        timers.clear();
    }
}
