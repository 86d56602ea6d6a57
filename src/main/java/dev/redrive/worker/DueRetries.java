package dev.redrive.worker;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;

import dev.redrive.time.Timers;

/**
 * The due times of the retries this process handed over, earliest first, with one timer set for
 * the earliest: a retry is claimed when it is due, not when a poll next comes round, and waiting
 * costs nothing. Bounded: beyond {@link #LIMIT} waiting jobs the rest are left to the safety-net
 * poll, which finds them all the same.
 */
final class DueRetries {

    /**
     * A job waiting for its retry: its id, the attempts it has had (its delivery count), when it is
     * due on {@link Timers#elapsedMillis} (never the wall clock: one set back an hour would hold
     * every timed retry an hour).
     */
    record Waiting(String id, int attempt, long dueMillis) {
    }

    static final int LIMIT = 100_000;

    private final Timers time;
    private final Runnable onDue;
    private final PriorityQueue<Waiting> byDue = new PriorityQueue<>(Comparator.comparingLong(Waiting::dueMillis));
    /**
     * How often each id is in {@link #byDue} (the safety-net poll leaves them to their timers). A
     * job can be twice: its older wait outlived by a later hand-over of the same entry (another
     * replica took it, failed and died, and stall recovery brought it back here); the older one's
     * claim then finds another delivery count and takes nothing, so neither is dropped.
     */
    private final Map<String, Integer> ids = new HashMap<>();
    private Timers.Timer timer;
    private long timerAt = Long.MAX_VALUE;
    private boolean stopped;

    /** @param onDue runs (on a timer) when the earliest waiting job is due */
    DueRetries(Timers time, Runnable onDue) {
        this.time = time;
        this.onDue = onDue;
    }

    /**
     * Now on {@link Timers#elapsedNanos}, rounded up to a whole millisecond: what a wait that Redis
     * has just started (a not-before claim.lua reported) is timed from.
     * Redis started the same wait a little earlier, in the script whose answer is now here, so a
     * timer set from this never fires before the entry's not-before on Redis' clock. Rounded down,
     * it could fire in the millisecond before, claim.lua would find the retry not due, and (before
     * claim.lua said how long it still has) the safety-net poll took it a second or more late.
     */
    static long waitStart(Timers time) {
        return ceilMillis(time.elapsedNanos());
    }

    /** {@link Timers#elapsedNanos} in whole milliseconds, rounded up. */
    static long ceilMillis(long nanos) {
        return -Math.floorDiv(-nanos, 1_000_000L);
    }

    synchronized void add(List<Waiting> waiting) {
        for (Waiting w : waiting) {
            if (byDue.size() < LIMIT) {
                byDue.add(w);
                ids.merge(w.id(), 1, Integer::sum);
            }
        }
        arm(true);
    }

    synchronized int size() {
        return byDue.size();
    }

    /** Whether a timer here stands for the job. */
    synchronized boolean times(String id) {
        return ids.containsKey(id);
    }

    /** Whether a waiting job is due now (slots freed: it can run). */
    synchronized boolean overdue() {
        Waiting first = byDue.peek();
        return first != null && first.dueMillis() <= time.elapsedMillis();
    }

    /** Up to {@code max} jobs due now, earliest first; the timer is set for the next one. */
    synchronized List<Waiting> takeDue(int max) {
        long now = time.elapsedMillis();
        List<Waiting> due = new ArrayList<>();
        while (due.size() < max && !byDue.isEmpty() && byDue.peek().dueMillis() <= now) {
            Waiting w = byDue.poll();
            ids.computeIfPresent(w.id(), (id, n) -> n > 1 ? n - 1 : null);
            due.add(w);
        }
        arm(false);
        return due;
    }

    synchronized void stop() {
        stopped = true;
        cancel();
        byDue.clear();
        ids.clear();
    }

    /**
     * Sets the timer for the earliest job. One already due is claimed by whoever frees a slot
     * (jobs left due mean the slots are full); only a job that is due as it is added, when a slot
     * may be free and nothing else would look, gets a timer at once.
     */
    private void arm(boolean adding) {
        Waiting first = byDue.peek();
        if (stopped || first == null) {
            cancel();
            return;
        }
        long now = time.elapsedMillis();
        if (first.dueMillis() <= now && !adding) {
            return;
        }
        long at = Math.max(now + 1, first.dueMillis());
        if (timer != null && timerAt <= at) {
            return;
        }
        cancel();
        timerAt = at;
        timer = time.after(Duration.ofMillis(at - now), this::fired);
    }

    private void fired() {
        synchronized (this) {
            timer = null;
            timerAt = Long.MAX_VALUE;
        }
        onDue.run();
        synchronized (this) {
            // Still due but no free slot: freed slots claim them (overdue); otherwise the next one's time.
            arm(false);
        }
    }

    private void cancel() {
        if (timer != null) {
            timer.cancel();
            timer = null;
            timerAt = Long.MAX_VALUE;
        }
    }
}
