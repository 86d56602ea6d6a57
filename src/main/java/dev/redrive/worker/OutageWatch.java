package dev.redrive.worker;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

import dev.redrive.config.QueueSpec;
import dev.redrive.deadletter.Outage;
import dev.redrive.retry.Failure;
import dev.redrive.time.Timers;

/**
 * When a queue's outage began, for the {@link Outage} its end reports. The breaker opens only
 * after a window of failed calls, and the jobs an outage exhausts are mostly parked in that
 * window, before it opens: so the outage starts at the first transient failure after the last
 * success (a call that failed and could have worked later), not when the breaker opened. Terminal
 * failures neither start nor end it (the provider answered), and calls never made (circuit open,
 * bulkhead full) say nothing about the provider.
 * <p>
 * Times are {@link Timers#elapsedNanos}: the monotonic clock, which a wall clock set back can't
 * move. Attempts end on event-loop threads and the breaker reports on others: one at a time.
 */
final class OutageWatch {

    /** Error types counted by name; more are counted together as {@link Outage#OTHER}. */
    static final int ERROR_TYPES = 8;
    private static final long NONE = Long.MIN_VALUE;

    private final QueueSpec queue;
    private final Timers time;

    /** The first transient failure since the last success; {@link #NONE} after a success. */
    private long streakStart = NONE;
    private Map<String, Integer> streakTypes = new LinkedHashMap<>();
    /** When the open circuit's outage began; {@link #NONE} while the circuit is closed. */
    private long outageStart = NONE;
    /** Read on every success without the lock: a success while nothing failed changes nothing. */
    private volatile boolean failing;

    OutageWatch(QueueSpec queue, Timers time) {
        this.queue = queue;
        this.time = time;
    }

    /** An attempt ended: {@code failure} null when it succeeded. */
    void attempted(Failure failure) {
        if (failure == null) {
            if (failing) {
                succeeded();
            }
        } else if (failure.attempted() && !failure.terminal()) {
            failed(failure.errorType());
        }
    }

    private synchronized void succeeded() {
        streakStart = NONE;
        failing = outageStart != NONE;
        if (outageStart == NONE) {
            streakTypes = new LinkedHashMap<>();
        }
    }

    private synchronized void failed(String errorType) {
        if (streakStart == NONE) {
            streakStart = time.elapsedNanos();
        }
        failing = true;
        String type = streakTypes.containsKey(errorType) || streakTypes.size() < ERROR_TYPES ? errorType : Outage.OTHER;
        streakTypes.merge(type, 1, Integer::sum);
    }

    /**
     * The circuit opened: the outage began with the streak of failures that opened it (or now, if
     * a success came between). Opening again after a failed probe keeps the start it has.
     */
    synchronized void opened() {
        if (outageStart == NONE) {
            outageStart = streakStart != NONE ? streakStart : time.elapsedNanos();
        }
        failing = true;
    }

    /** The circuit closed: the outage that ends now, if it was open. */
    synchronized Optional<Outage> closed() {
        if (outageStart == NONE) {
            return Optional.empty();
        }
        Outage ended = new Outage(queue, outageStart, time.elapsedNanos(), streakTypes);
        outageStart = NONE;
        // The probe that closed it succeeded: the next outage starts with the next failure.
        streakStart = NONE;
        streakTypes = new LinkedHashMap<>();
        failing = false;
        return Optional.of(ended);
    }
}
