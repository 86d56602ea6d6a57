package dev.redrive.worker;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.jboss.logging.Logger;

import dev.redrive.config.QueueSpec;
import dev.redrive.redis.StreamAccess;
import dev.redrive.time.Timers;

/**
 * Moves failed jobs from "waiting for retry" back to running once their backoff has passed.
 * Waiting entries sit under {@link Consumers#RETRY}; their attempt count is their delivery count
 * and their wait started when they failed (the process that handed them over times it from then;
 * the safety net from the hand-over, by their idle time), so the due time needs no extra state in Redis.
 * <p>
 * Two ways find a due retry. This process knows the due time of every job it handed over itself
 * ({@link #handedOver}): a timer claims each when it is due, however many wait, without polling.
 * The poll every {@code retry-poll} is the slow safety net for jobs whose process died before
 * their retry: it reads pages of the retry consumer's entries only while the group's pending
 * summary ({@link #observe}) says some wait that no timer here stands for.
 */
final class RetryScheduler {

    private static final Logger LOG = Logger.getLogger(RetryScheduler.class);

    private final QueueWorker worker;
    private final QueueSpec spec;
    private final PelSweep sweep;
    private final DueRetries due;
    private final Timers time;
    /** The last look found more due retries than free slots: fill slots as soon as they free up. */
    private volatile boolean dueWaiting;
    /** What the last pending summary said waits under the retry consumer, beyond what {@link #due} times. */
    private volatile boolean untimedWaiting = true;

    RetryScheduler(QueueWorker worker, StreamAccess redis, Timers time) {
        this.worker = worker;
        this.spec = worker.spec();
        this.sweep = new PelSweep(redis, time, spec.stream(), spec.group(), Math.max(100, spec.concurrency() * 4),
                LOG, "looking for due retries of " + spec.stream());
        this.due = new DueRetries(time, this::claimDue);
        this.time = time;
    }

    void start() {
        sweep.every(spec.retryPoll(), this::poll);
    }

    /** A batch of the worker's slots came free: fill them when due retries wait. */
    void slotsFreed() {
        if (dueWaiting) {
            poll();
        }
        if (due.overdue()) {
            claimDue();
        }
    }

    void stop() {
        sweep.stop();
        due.stop();
    }

    /** Jobs this process just handed to the retry consumer, each with its attempt count and due time. */
    void handedOver(List<DueRetries.Waiting> waiting) {
        due.add(waiting);
    }

    /** The group's pending entries under the retry consumer, as a summary counted them. */
    void observe(long waitingForRetry) {
        untimedWaiting = waitingForRetry > due.size();
    }

    /** Claims the retries whose timers are due, as many as there are free slots. */
    private void claimDue() {
        int free = worker.freeSlots();
        if (free <= 0) {
            return;
        }
        List<DueRetries.Waiting> taken = due.takeDue(free);
        if (taken.isEmpty()) {
            return;
        }
        List<StreamAccess.Seen> seen = new ArrayList<>(taken.size());
        taken.forEach(w -> seen.add(new StreamAccess.Seen(w.id(), Consumers.RETRY, w.attempt(), Duration.ZERO)));
        worker.claim(seen, Duration.ZERO).subscribe().with(claimed -> {
            worker.took(claimed);
            timeAgain(claimed.notYet());
        }, error -> LOG.debugf("claiming %d due retries of %s failed (%s); the safety-net poll finds them",
                taken.size(), spec.stream(), error.getMessage()));
        // An entry the claim skipped was taken by another replica or has moved on since; whoever
        // hands it to the retry consumer next times it again.
    }

    /**
     * Retries whose Retry-After had not passed on Redis' clock when their timer here fired: timed
     * again for when Redis says, so they stay this process's and run then, not when the safety-net
     * poll next comes round.
     */
    private void timeAgain(List<StreamAccess.NotYet> notYet) {
        if (notYet.isEmpty()) {
            return;
        }
        long from = DueRetries.waitStart(time);
        List<DueRetries.Waiting> waiting = new ArrayList<>(notYet.size());
        notYet.forEach(n -> waiting.add(new DueRetries.Waiting(n.id(), n.deliveryCount(), from + n.waitMillis())));
        due.add(waiting);
    }

    private void poll() {
        if (due.overdue()) {
            // Due while the queue was paused or full, and no slot has come free since.
            claimDue();
        }
        if (!untimedWaiting && !dueWaiting) {
            return;
        }
        int free = worker.freeSlots();
        if (free <= 0) {
            return;
        }
        // Enough to fill the free slots when only some waiting entries are due, no more: a page
        // is read and decoded whole, and most of a large one would only be skipped.
        int ask = Math.min(sweep.pageSize(), Math.max(100, free * 4));
        PelSweep.Look look = new PelSweep.Look(Consumers.RETRY, spec.backoff().shortest().plus(spec.retryPoll()), ask,
                free, this::isDue);
        // A page full of due entries means more wait: look again as slots free up, not at the next
        // tick (the slots just filled are busy until their jobs settle).
        sweep.claimFor(worker, look, Duration.ZERO,
                claimed -> dueWaiting = !claimed.entries().isEmpty() && claimed.entries().size() >= free);
    }

    /**
     * Left to the safety net once idle for the backoff before its next attempt (jitter seeded by
     * the id, so every tick agrees) and one poll more: a live process claims its own retries when
     * they are due, so the net steps in only behind it. A retry timed here is never the net's.
     */
    private boolean isDue(StreamAccess.Seen seen) {
        Duration backoff = spec.backoff().delayBefore(seen.deliveryCount() + 1, seen.id().hashCode());
        return !due.times(seen.id()) && seen.idle().compareTo(backoff.plus(spec.retryPoll())) >= 0;
    }
}
