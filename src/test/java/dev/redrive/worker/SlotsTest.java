package dev.redrive.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;

import dev.redrive.job.Job;

/** How a worker's reads are pipelined (issue 27): several in flight when there is room, never more than the slots. */
class SlotsTest {

    private static final int LIMIT = 1000;
    private static final int BATCH = 200;
    private int next;

    private List<Job> jobs(int n) {
        List<Job> jobs = new ArrayList<>();
        IntStream.range(0, n).forEach(i -> jobs.add(new Job("q", "q", (next++) + "-0", 1, 3, Map.of())));
        return jobs;
    }

    @Test
    void oneReadThatMayWaitUntilAReadComesBackFull() {
        Slots slots = new Slots();
        Slots.Turn first = slots.take(LIMIT, false, true, BATCH);
        assertEquals(List.of(new Slots.Read(BATCH, true)), first.reads());
        assertTrue(slots.take(LIMIT, false, true, BATCH).reads().isEmpty(), "no second read before a full answer");
    }

    @Test
    void afterAFullAnswerReadsArePipelinedWhileWholeBatchesOfSlotsAreFree() {
        Slots slots = new Slots();
        slots.take(LIMIT, false, true, BATCH);
        slots.read(BATCH, jobs(BATCH));
        Slots.Turn turn = slots.take(LIMIT, false, true, BATCH);
        assertEquals(BATCH, turn.start().size());
        // 200 held, 800 free: one read that may wait, then three more that answer at once.
        assertEquals(List.of(new Slots.Read(BATCH, true), new Slots.Read(BATCH, false), new Slots.Read(BATCH, false),
                new Slots.Read(BATCH, false)), turn.reads());
        assertTrue(slots.take(LIMIT, false, true, BATCH).reads().isEmpty(), "every free slot is asked for");
    }

    @Test
    void neverMoreRunningThanTheLimitWhateverTheReadsBring() {
        Slots slots = new Slots();
        int running = 0;
        int mostRunning = 0;
        List<Slots.Read> inFlight = new ArrayList<>(slots.take(LIMIT, false, true, BATCH).reads());
        for (int round = 0; round < 50; round++) {
            // Every read comes back full; no job finishes for a while, then a few do.
            List<Slots.Read> answering = new ArrayList<>(inFlight);
            inFlight.clear();
            for (Slots.Read r : answering) {
                slots.read(r.count(), jobs(r.count()));
            }
            Slots.Turn turn = slots.take(LIMIT, false, true, BATCH);
            running += turn.start().size();
            mostRunning = Math.max(mostRunning, running);
            inFlight.addAll(turn.reads());
            int asked = inFlight.stream().mapToInt(Slots.Read::count).sum();
            // held + ready + asked <= limit: the reads never ask for more than the free slots.
            assertTrue(asked <= slots.free(LIMIT), "asked " + asked + ", free " + slots.free(LIMIT));
            assertTrue(inFlight.size() <= Slots.MAX_READS, "reads in flight " + inFlight.size());
            if (round % 5 == 4) {
                for (int i = 0; i < 150 && running > 0; i++) {
                    slots.release();
                    running--;
                }
            }
        }
        assertTrue(mostRunning <= LIMIT, "most running " + mostRunning);
        assertEquals(LIMIT, mostRunning, "the reads keep every slot busy");
    }

    @Test
    void aShortAnswerEndsThePipelining() {
        Slots slots = new Slots();
        slots.take(LIMIT, false, true, BATCH);
        slots.read(BATCH, jobs(BATCH));
        Slots.Turn turn = slots.take(LIMIT, false, true, BATCH);
        assertEquals(4, turn.reads().size());
        for (Slots.Read r : turn.reads()) {
            slots.read(r.count(), jobs(r.mayWait() ? 10 : 0));
        }
        Slots.Turn after = slots.take(LIMIT, false, true, BATCH);
        assertEquals(1, after.reads().size(), "one read again, which may wait for new entries");
        assertTrue(after.reads().get(0).mayWait());
    }
}
