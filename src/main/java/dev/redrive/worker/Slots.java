package dev.redrive.worker;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

import dev.redrive.job.Job;

/**
 * A queue worker's slot accounting, under one lock: jobs waiting to run, jobs holding a slot
 * (running, or with their outcome not yet written), and the reads in flight with the entries they
 * asked for. A slot is held until the job's outcome is answered by Redis, and a read asks only for
 * slots nothing holds, waits for or has asked for already, so the PEL never holds more of this
 * process's work than it can finish.
 *
 * <p>Reads are pipelined: while the last read came back full (a backlog) and a whole batch of
 * slots is still free beyond what the reads in flight asked for, another read goes out before the
 * first is answered, up to {@link #MAX_READS}, so the queue's speed follows Redis rather than one
 * round trip after another. XREADGROUP with {@code >} hands each entry to one read only. Only a
 * read sent with none in flight may wait for new entries; the others answer at once, with what
 * there is.
 */
final class Slots {

    /** Reads one worker keeps in flight at most, as the peers' raw drain does (bench/README). */
    static final int MAX_READS = 8;

    /** One read to send: {@code count} entries at most; {@code mayWait} when it may block for new ones. */
    record Read(int count, boolean mayWait) {
    }

    /** What one pump does: the jobs it starts, and the reads it sends (none: empty). */
    record Turn(List<Job> start, List<Read> reads) {
    }

    private final ArrayDeque<Job> ready = new ArrayDeque<>();
    private int held;
    private int reads;
    /** Entries the reads in flight asked for: slots kept for their answers. */
    private int asked;
    /** The last answered read brought all it asked for: more are likely there. */
    private boolean backlog;
    private boolean pumpScheduled;

    synchronized boolean idle() {
        return held == 0 && ready.isEmpty() && reads == 0;
    }

    /**
     * Slots of {@code limit} that no job holds or waits for: what claims may fill. What the reads in
     * flight asked for is not taken off: a read waiting for new entries would otherwise keep due
     * retries out for as long as it waits. Either way no more than {@code limit} jobs run at once;
     * entries beyond it wait their turn in {@code ready}.
     */
    synchronized int free(int limit) {
        return limit - held - ready.size();
    }

    synchronized void offer(List<Job> jobs) {
        ready.addAll(jobs);
    }

    /** A read in flight that asked for {@code count} entries is answered with {@code jobs} (none when it failed). */
    synchronized void read(int count, List<Job> jobs) {
        reads--;
        asked -= count;
        backlog = jobs.size() >= count;
        ready.addAll(jobs);
    }

    /**
     * Gives ready jobs a slot, up to {@code limit} held; with {@code drain}, every ready job (to be
     * handed back unspent). With {@code mayRead}: when nothing waits and no read is in flight, one
     * read of at most {@code batch} entries and no more than the free slots, which may wait; then,
     * while the last read came back full, one more read of a whole {@code batch} for each batch of
     * slots still free, up to {@link #MAX_READS} in flight.
     */
    synchronized Turn take(int limit, boolean drain, boolean mayRead, int batch) {
        List<Job> start = new ArrayList<>();
        while (!ready.isEmpty() && (held < limit || drain)) {
            start.add(ready.poll());
            held++;
        }
        if (!mayRead) {
            return new Turn(start, List.of());
        }
        List<Read> send = new ArrayList<>(1);
        if (reads == 0 && ready.isEmpty()) {
            int count = Math.min(batch, limit - held - asked);
            if (count > 0) {
                send.add(new Read(count, true));
                reads++;
                asked += count;
            }
        }
        while (backlog && reads > 0 && reads < MAX_READS && limit - held - ready.size() - asked >= batch) {
            send.add(new Read(batch, false));
            reads++;
            asked += batch;
        }
        return new Turn(start, send);
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
