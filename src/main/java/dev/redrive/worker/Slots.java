package dev.redrive.worker;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

import dev.redrive.job.Job;

/**
 * A queue worker's slot accounting, under one lock: jobs waiting to run, jobs holding a slot
 * (running, or with their outcome not yet written), and whether a read is in flight. A slot is
 * held until the job's outcome is answered by Redis, so the PEL never holds more of this
 * process's work than it can finish.
 */
final class Slots {

    /** What one pump does: the jobs it starts, and how many new entries it reads (0: none). */
    record Turn(List<Job> start, int read) {
    }

    private final ArrayDeque<Job> ready = new ArrayDeque<>();
    private int held;
    private boolean reading;
    private boolean pumpScheduled;

    synchronized boolean idle() {
        return held == 0 && ready.isEmpty() && !reading;
    }

    /** Slots of {@code limit} that no job holds or waits for. */
    synchronized int free(int limit) {
        return limit - held - ready.size();
    }

    synchronized void offer(List<Job> jobs) {
        ready.addAll(jobs);
    }

    /** The read in flight is answered with {@code jobs} (none when it failed). */
    synchronized void read(List<Job> jobs) {
        reading = false;
        ready.addAll(jobs);
    }

    /**
     * Gives ready jobs a slot, up to {@code limit} held; with {@code drain}, every ready job (to be
     * handed back unspent). Reads when nothing waits, no read is in flight and {@code mayRead},
     * at most {@code batch} entries and no more than the free slots.
     */
    synchronized Turn take(int limit, boolean drain, boolean mayRead, int batch) {
        List<Job> start = new ArrayList<>();
        while (!ready.isEmpty() && (held < limit || drain)) {
            start.add(ready.poll());
            held++;
        }
        int read = 0;
        if (mayRead && !reading && ready.isEmpty()) {
            read = Math.min(batch, limit - held);
            reading = read > 0;
        }
        return new Turn(start, read);
    }

    /** A job that never waited takes a slot (a missing entry, parked straight away). */
    synchronized void hold() {
        held++;
    }

    /**
     * Frees a slot; true when the caller should schedule a pump, false when one already is (slots
     * come free a batch at a time, and one pump after the batch serves them all).
     */
    synchronized boolean release() {
        held--;
        boolean schedule = !pumpScheduled;
        pumpScheduled = true;
        return schedule;
    }

    /** The scheduled pump runs: the next freed slot schedules another. */
    synchronized void pumping() {
        pumpScheduled = false;
    }
}
