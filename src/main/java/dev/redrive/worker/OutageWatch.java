package dev.redrive.worker;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Consumer;

import dev.redrive.config.QueueSpec;
import dev.redrive.deadletter.Outage;
import dev.redrive.retry.Failure;
import dev.redrive.time.Timers;

/**
 * When a queue's outage began and when it ended, for the {@link Outage} it reports once it is
 * over. The breaker opens only after a window of failed calls, and the jobs an outage exhausts are
 * mostly parked in that window, before it opens: so the outage begins at the first transient
 * failure after the last success (a call that failed and could have worked later), not when the
 * breaker opened. It is over once the circuit closed and a call succeeded since the circuit last
 * opened, and ends at the later of the two: the breaker counts a refused job (a terminal failure,
 * which the provider may answer, or an unsendable job it never sees) as a success, so a probe of
 * one closes it though the provider may still be down; the failures after it open it again, and
 * the outage goes on, one outage still, or they are too few to open it, and the jobs they exhaust
 * until the first success are the outage's too. Terminal failures neither begin nor end it, and
 * calls never made (circuit open, bulkhead full) say nothing about the provider.
 * <p>
 * Times are {@link Timers#elapsedNanos}: the monotonic clock, which a wall clock set back can't
 * move. Attempts end on event-loop threads and the breaker reports on others: one at a time; the
 * outage is reported outside the lock.
 */
final class OutageWatch {

    /** Error types counted by name; more are counted together as {@link Outage#OTHER}. */
    static final int ERROR_TYPES = 8;
    private static final long NONE = Long.MIN_VALUE;

    private final QueueSpec queue;
    private final Timers time;
    private final Consumer<Outage> ended;

    /** The first transient failure since the last success; {@link #NONE} after a success. */
    private long streakStart = NONE;
    private Map<String, Integer> errorTypes = new LinkedHashMap<>();
    /** When the open circuit's outage began; {@link #NONE} when there is none. */
    private long outageStart = NONE;
    /** The circuit closed since it last opened (a success may still have to confirm it). */
    private boolean closed;
    /** A call succeeded since the circuit last opened. */
    private boolean answered;
    /** Read on every success without the lock: while nothing failed, a success changes nothing. */
    private volatile boolean failing;

    /** {@code ended} is told each outage once it is over, on the thread that saw it end. */
    OutageWatch(QueueSpec queue, Timers time, Consumer<Outage> ended) {
        this.queue = queue;
        this.time = time;
        this.ended = ended;
    }

    /** An attempt ended: {@code failure} null when it succeeded. */
    void attempted(Failure failure) {
        if (failure == null) {
            if (failing) {
                report(succeeded());
            }
        } else if (failure.attempted() && !failure.terminal()) {
            failed(failure.errorType());
        }
    }

    private synchronized Outage succeeded() {
        streakStart = NONE;
        if (outageStart == NONE) {
            errorTypes = new LinkedHashMap<>();
            failing = false;
            return null;
        }
        answered = true;
        return over();
    }

    private synchronized void failed(String errorType) {
        if (streakStart == NONE) {
            streakStart = time.elapsedNanos();
        }
        failing = true;
        String type = errorTypes.containsKey(errorType) || errorTypes.size() < ERROR_TYPES ? errorType : Outage.OTHER;
        errorTypes.merge(type, 1, Integer::sum);
    }

    /**
     * The circuit opened: the outage began with the streak of failures that opened it (now, if a
     * success came between). Opening again keeps the start it has, and undoes a close that no
     * success confirmed.
     */
    synchronized void opened() {
        if (outageStart == NONE) {
            outageStart = streakStart != NONE ? streakStart : time.elapsedNanos();
        }
        closed = false;
        answered = false;
        failing = true;
    }

    /** The circuit closed: the outage ends now, once a success since it opened confirms it. */
    void closed() {
        Outage over;
        synchronized (this) {
            if (outageStart == NONE) {
                return;
            }
            closed = true;
            over = over();
        }
        report(over);
    }

    /**
     * The outage, if it is over (closed, and a call succeeded since it opened), and a watch that
     * starts afresh. It ends now, when the later of the two came: after a close no success
     * confirmed (a refused probe), the provider may have failed jobs until the success, and those
     * were exhausted by this outage too.
     */
    private Outage over() {
        if (!closed || !answered) {
            return null;
        }
        Outage over = new Outage(queue, outageStart, time.elapsedNanos(), errorTypes);
        outageStart = NONE;
        closed = false;
        answered = false;
        streakStart = NONE;
        errorTypes = new LinkedHashMap<>();
        failing = false;
        return over;
    }

    private void report(Outage over) {
        if (over != null) {
            ended.accept(over);
        }
    }
}
