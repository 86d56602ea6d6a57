package dev.redrive.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.redrive.testing.SteppableTimers;

/**
 * The retries a process times, on timers the test steps: taken when due, earliest first, none
 * dropped, and the one timer runs when the earliest is due, not before.
 */
class DueRetriesTest {

    /** Epoch ms 0, so a due time reads as the ms from the start. */
    final SteppableTimers time = SteppableTimers.manual(Instant.EPOCH);
    /** When each timer ran, and what it took then (as the scheduler does: up to 10). */
    final List<Long> ranAt = new ArrayList<>();
    final List<String> taken = new ArrayList<>();
    final DueRetries due = new DueRetries(time, () -> {
        ranAt.add(time.millis());
        takeDue(10);
    });

    @AfterEach
    void stop() {
        due.stop();
        assertEquals(0, time.pending(), "a stopped DueRetries leaves no timer behind");
    }

    private List<String> takeDue(int max) {
        List<String> ids = due.takeDue(max).stream().map(DueRetries.Waiting::id).toList();
        taken.addAll(ids);
        return ids;
    }

    private void step(long millis) {
        time.advance(Duration.ofMillis(millis));
    }

    @Test
    void dueJobsAreTakenEarliestFirstAndNoMoreThanAsked() {
        step(1_000);
        due.add(List.of(new DueRetries.Waiting("3-0", 1, 3_000), new DueRetries.Waiting("1-0", 1, 1_500),
                new DueRetries.Waiting("2-0", 2, 2_000)));
        assertEquals(List.of(), takeDue(10));
        time.clock().advance(Duration.ofMillis(1_000)); // the clock alone: no timer runs
        assertTrue(due.overdue());
        assertEquals(List.of("1-0"), takeDue(1));
        assertEquals(List.of("2-0"), takeDue(10));
        assertFalse(due.overdue());
        assertEquals(1, due.size());
    }

    @Test
    void theTimerRunsWhenTheEarliestIsDueAndThenForTheNext() {
        due.add(List.of(new DueRetries.Waiting("2-0", 1, 3_000), new DueRetries.Waiting("1-0", 1, 1_000)));
        step(999);
        assertEquals(List.of(), ranAt, "nothing is due before 1000");
        step(1);
        assertEquals(List.of(1_000L), ranAt);
        assertEquals(List.of("1-0"), taken);
        step(2_000);
        assertEquals(List.of(1_000L, 3_000L), ranAt, "one timer at a time, set for the next due job");
        assertEquals(List.of("1-0", "2-0"), taken);
        assertEquals(0, time.pending());
    }

    /** Due times are on the monotonic clock: a wall clock set back an hour (NTP, a resumed VM) holds no retry. */
    @Test
    void aWallClockSetBackHoldsNoRetry() {
        due.add(List.of(new DueRetries.Waiting("1-0", 1, 1_000)));
        time.clock().jump(Duration.ofHours(-1));
        step(1_000);
        assertEquals(List.of("1-0"), taken, "due a second after it was handed over, whatever the wall clock says");
        assertEquals(0, time.pending());
    }

    @Test
    void anEarlierJobMovesTheTimerForward() {
        due.add(List.of(new DueRetries.Waiting("late-0", 1, 5_000)));
        due.add(List.of(new DueRetries.Waiting("early-0", 1, 200)));
        step(200);
        assertEquals(List.of(200L), ranAt);
        assertEquals(List.of("early-0"), taken);
        assertEquals(1, time.pending(), "the timer for the later job stands");
    }

    @Test
    void aJobHandedOverAgainBeforeItsOlderWaitEndsIsTimedTwiceAndNeitherIsDropped() {
        due.add(List.of(new DueRetries.Waiting("7-0", 1, 100)));
        due.add(List.of(new DueRetries.Waiting("7-0", 3, 200)));
        assertEquals(2, due.size());
        time.clock().advance(Duration.ofMillis(150));
        assertEquals(List.of(1), due.takeDue(10).stream().map(DueRetries.Waiting::attempt).toList());
        assertTrue(due.times("7-0"), "the later wait still stands for the job");
        time.clock().advance(Duration.ofMillis(100));
        assertEquals(List.of(3), due.takeDue(10).stream().map(DueRetries.Waiting::attempt).toList());
        assertFalse(due.times("7-0"));
    }

    /**
     * A wait Redis has just started (a hand-over, a claim that found the retry not yet due) is
     * timed from now rounded up to a whole ms: its timer then never fires in the millisecond before
     * the not-before Redis counts from a moment earlier. Rounded down, a share of the retries with
     * a Retry-After found claim.lua saying "not yet" (bench/README.md, issue 37).
     */
    @Test
    void aWaitIsTimedFromNowRoundedUpToAWholeMillisecond() {
        time.clock().advance(Duration.ofNanos(1_000_400_000));
        assertEquals(1_000, time.elapsedMillis());
        assertEquals(1_001, DueRetries.waitStart(time));
        time.clock().advance(Duration.ofNanos(600_000));
        assertEquals(1_001, time.elapsedMillis());
        assertEquals(1_001, DueRetries.waitStart(time), "a whole ms is not rounded further");
    }
}
