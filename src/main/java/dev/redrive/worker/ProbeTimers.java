package dev.redrive.worker;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

import dev.redrive.time.Timers;

/**
 * Each paused queue's timer for its next probe ({@link Workers}: the circuit breaker only
 * half-opens when called, so after its delay one job is let through). A queue has one at a time,
 * and {@link #cancelAll} at shutdown cancels them and refuses new ones: a probe must not let a
 * job through a stopping worker.
 */
final class ProbeTimers {

    private final Timers time;
    private final Map<String, Timers.Timer> byQueue = new HashMap<>();
    private boolean closed;

    ProbeTimers(Timers time) {
        this.time = time;
    }

    /** Runs {@code probe} after {@code delay}, in place of the queue's probe still waiting (if any); nothing once closed. */
    synchronized void schedule(String queue, Duration delay, Runnable probe) {
        if (closed) {
            return;
        }
        Timers.Timer earlier = byQueue.put(queue, time.after(delay, probe));
        if (earlier != null) {
            earlier.cancel();
        }
    }

    synchronized void cancelAll() {
        closed = true;
        byQueue.values().forEach(Timers.Timer::cancel);
        byQueue.clear();
    }
}
